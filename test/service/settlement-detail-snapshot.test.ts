import { execute, parse } from 'graphql';
import type { EntityManager } from '@mikro-orm/postgresql';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Principal } from '@campaign/platform';
import { buildSettlementSchema, createLoaders } from '@campaign/settlement';
import { useWorkflow } from './workflow-support.js';

/**
 * A settlement's detail is one snapshot (issue 27, "Detail answers and read skew"): a commit that
 * lands between the detail's statements must not show in half of the answer. The commit is made
 * deterministically inside the read: right after the first prepared statement of the request
 * answers, before its caller sees the rows, another connection commits what a provider's result
 * commits (the reverse issuance's SUCCESS and the settlement's received date together).
 */
const w = useWorkflow();
let schema: Awaited<ReturnType<typeof buildSettlementSchema>>['schema'];

interface PgConnection {
  query(...args: unknown[]): unknown;
  detailHooked?: boolean;
}
/** Runs once, after the next prepared statement answers (null: nothing armed). */
let afterNextStatement: (() => Promise<void>) | null = null;
/** How many prepared statements the pool has run; the columns of the last detail statement's answer. */
let preparedStatements = 0;
let detailColumns = 0;
/** How many times a request's context gave out its EntityManager (a fork, made on first use). */
let forks = 0;

/** Every pool connection's prepared statements (a `name`, no callback) pass the hook above. */
function hookPool(): void {
  const client = w.em().getKnex().client as { acquireConnection(): Promise<PgConnection> };
  const acquire = client.acquireConnection.bind(client);
  client.acquireConnection = async () => {
    const connection = await acquire();
    if (connection.detailHooked) return connection;
    const query = connection.query.bind(connection);
    connection.query = (...args: unknown[]) => {
      const prepared = args.length === 1 && (args[0] as { name?: string }).name !== undefined;
      if (!prepared) return query(...args);
      preparedStatements += 1;
      const { name } = args[0] as { name: string };
      const counted = (query(...args) as Promise<{ fields: unknown[] }>).then((result) => {
        if (name.startsWith('settlement_detail')) detailColumns = result.fields.length;
        return result;
      });
      if (!afterNextStatement) return counted;
      const hook = afterNextStatement;
      afterNextStatement = null;
      return counted.then(async (result) => {
        await hook();
        return result;
      });
    };
    connection.detailHooked = true;
    return connection;
  };
}

/** The answer of `query` as the settlement subgraph's execution gives it to `principal`. */
async function run(query: string, variableValues: Record<string, unknown>, principal: Principal) {
  let em: EntityManager | undefined;
  const context = {
    // As the server's: forked on first use; counted, as a detail needs none.
    get em(): EntityManager {
      forks += 1;
      return (em ??= w.em());
    },
    reads: w.root(),
    requestId: 'detail-snapshot',
    clientAddress: '127.0.0.1',
    services: w.services,
    principal: () => Promise.resolve(principal),
    loaders: createLoaders((): EntityManager => context.em, w.root()),
  };
  const result = await execute({
    schema,
    document: parse(query),
    variableValues,
    contextValue: context,
  });
  expect(result.errors).toBeUndefined();
  return result.data as Record<string, Record<string, unknown>>;
}

const detail = async (id: string) =>
  (
    await run(
      `query($id: ID!) { settlement(id: $id) {
        id partnerInvoiceReceivedAt partner { id name } reverseIssuance { settlementId status } } }`,
      { id },
      w.admin,
    )
  )['settlement']!;

/** What a provider's SUCCESS commits: both in one transaction (tax-invoice flows). */
async function providerSuccess(id: string): Promise<void> {
  await w.em().transactional(async (tx) => {
    await tx.execute(`update reverse_issuance set status = 'SUCCESS' where settlement_id = ?`, [
      id,
    ]);
    await tx.execute(`update settlement set partner_invoice_received_at = now() where id = ?`, [
      id,
    ]);
  });
}

/** Every stored field of a settlement and of the documents a detail joins. */
const EVERY_FIELD = `id campaignId partnerId agencyId campaignPrice commissionRate commissionAmount
  settlementAmount withholdingTaxRate withholdingTaxAmount payoutAmount status settlementType
  advertiserInvoiceId partnerPayoutId invoiceIssuedAt invoicePaidAt partnerInvoiceReceivedAt
  bankName accountNumber accountHolder requestedAt processedAt completedAt adminNotes createdAt
  partner { id name entityType commissionRate email bankName accountNumber accountId }
  advertiserInvoice { id invoiceNumber advertiserId advertiserName agencyId invoiceType
    periodStart periodEnd subtotal taxAmount totalAmount taxInvoiceNumber taxInvoiceIssuedAt
    status dueDate paidAt createdAt taxInvoiceIssuanceKey taxInvoiceStatus }
  partnerPayout { id payoutNumber partnerId partnerName payoutType periodStart periodEnd subtotal
    taxAmount totalAmount partnerInvoiceNumber partnerInvoiceReceivedAt status paidAt
    transactionId bankName accountNumber accountHolder createdAt }
  reverseIssuance { id settlementId issuanceKey status grantUrl grantUrlExpiresAt failureCode
    failureMessage taxInvoiceNumber documentUrl createdAt updatedAt }`;

beforeAll(async () => {
  schema = (await buildSettlementSchema()).schema;
  hookPool();
});

describe('a settlement detail is one snapshot', () => {
  it('a commit after its first statement shows in none of the answer, then in all of it', async () => {
    const id = await w.newSettlement('CORPORATE_BUSINESS');
    await w.partnerRequest.request(w.em(), w.partners.CORPORATE_BUSINESS.actor, id);
    let committed = false;
    afterNextStatement = async () => {
      await providerSuccess(id);
      committed = true;
    };
    const first = await detail(id);
    expect(committed).toBe(true);
    expect(first).toMatchObject({
      id,
      partnerInvoiceReceivedAt: null,
      partner: { name: 'Partner CORPORATE_BUSINESS' },
      reverseIssuance: { settlementId: id, status: 'PENDING' },
    });
    const again = await detail(id);
    expect(again['partnerInvoiceReceivedAt']).not.toBeNull();
    expect(again['reverseIssuance']).toEqual({ settlementId: id, status: 'SUCCESS' });
  });

  it("answers the bytes of the list's separate reads, admin and partner, with and without documents", async () => {
    const plain = await w.newSettlement('INDIVIDUAL');
    const full = await w.newSettlement('CORPORATE_BUSINESS');
    const business = w.partners.CORPORATE_BUSINESS;
    await w.partnerRequest.request(w.em(), business.actor, full);
    await w.statusChange.changeStatus(w.em(), w.admin, full, { status: 'ADVERTISER_PAID' });
    await w.platformFlow.startPayout(w.em(), w.admin, full);
    const documents = await w.rows(full);
    expect([documents.invoice, documents.payout, documents.reverse]).not.toContain(null);

    const views = [
      ['settlement', 'settlements', w.admin],
      ['partnerSettlement', 'partnerSettlements', business.actor],
      ['partnerSettlement', 'partnerSettlements', w.partners.INDIVIDUAL.actor],
    ] as const;
    for (const [one, list, principal] of views) {
      const page = await run(
        `query { ${list}(limit: 100) { items { ${EVERY_FIELD} } } }`,
        {},
        principal,
      );
      const items = page[list]!['items'] as { id: string }[];
      const mine = [plain, full].filter((id) => items.some((item) => item.id === id));
      expect(mine.length).toBeGreaterThan(0);
      for (const id of mine) {
        const [before, forksBefore] = [preparedStatements, forks];
        const answer = await run(
          `query($id: ID!) { ${one}(id: $id) { ${EVERY_FIELD} } }`,
          { id },
          principal,
        );
        // The settlement and its four documents: one statement (the admin has no scope to read).
        if (principal === w.admin) expect(preparedStatements - before).toBe(1);
        // Read on the root EntityManager: no fork per request (issue 27); the statement's answer
        // is one JSON column per table, not a column per stored field.
        expect(forks - forksBefore).toBe(0);
        expect(detailColumns).toBe(5);
        expect(JSON.stringify(answer[one])).toBe(
          JSON.stringify(items.find((item) => item.id === id)),
        );
      }
    }
  });
});

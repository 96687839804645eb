import { execute, parse } from 'graphql';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildSettlementSchema, createLoaders, Settlement } from '@campaign/settlement';
import { insertDefaultAgency, useSettlementServices } from '../support/service-database.js';

/**
 * A settlement's detail is one snapshot (issue 27, "Detail answers and read skew"): a commit that
 * lands between the detail's statements must not show in half of the answer. The commit is made
 * deterministically inside the read: right after the first prepared statement of the request
 * answers, before its caller sees the rows, another connection commits what a provider's result
 * commits (the reverse issuance's SUCCESS and the settlement's received date together).
 */
const { orm, services, em, admin } = useSettlementServices();
let settlementId: string;
let schema: Awaited<ReturnType<typeof buildSettlementSchema>>['schema'];

interface PgConnection {
  query(...args: unknown[]): unknown;
  detailHooked?: boolean;
}
/** Runs once, after the next prepared statement answers (null: nothing armed). */
let afterNextStatement: (() => Promise<void>) | null = null;

/** Every pool connection's prepared statements (a `name`, no callback) pass the hook above. */
function hookPool(): void {
  const client = orm().em.getKnex().client as { acquireConnection(): Promise<PgConnection> };
  const acquire = client.acquireConnection.bind(client);
  client.acquireConnection = async () => {
    const connection = await acquire();
    if (connection.detailHooked) return connection;
    const query = connection.query.bind(connection);
    connection.query = (...args: unknown[]) => {
      const prepared = args.length === 1 && (args[0] as { name?: string }).name !== undefined;
      if (!prepared || !afterNextStatement) return query(...args);
      const hook = afterNextStatement;
      afterNextStatement = null;
      return (query(...args) as Promise<unknown>).then(async (result) => {
        await hook();
        return result;
      });
    };
    connection.detailHooked = true;
    return connection;
  };
}

/** Every stored field of a settlement and of the documents a detail joins. */
const EVERY_FIELD = `id campaignId partnerId agencyId campaignPrice commissionRate commissionAmount
  settlementAmount withholdingTaxRate withholdingTaxAmount payoutAmount status settlementType
  advertiserInvoiceId partnerPayoutId invoiceIssuedAt invoicePaidAt partnerInvoiceReceivedAt
  requestedAt processedAt completedAt adminNotes createdAt
  partner { id name entityType commissionRate email bankName accountId } advertiserInvoice { id } partnerPayout { id }
  reverseIssuance { id settlementId issuanceKey status grantUrl grantUrlExpiresAt failureCode
    failureMessage createdAt updatedAt }`;

/** The answer of `query` as the settlement subgraph gives it to the super admin. */
async function run(query: string, id: string) {
  const fork = em();
  const result = await execute({
    schema,
    document: parse(query),
    variableValues: { id },
    contextValue: {
      em: fork,
      requestId: 'detail-snapshot',
      clientAddress: '127.0.0.1',
      services,
      principal: () => Promise.resolve(admin),
      loaders: createLoaders(fork),
    },
  });
  expect(result.errors).toBeUndefined();
  return result.data as Record<string, Record<string, unknown>>;
}

const detail = async (id: string) =>
  (
    await run(
      `query($id: ID!) { settlement(id: $id) {
        id partnerInvoiceReceivedAt partner { id name } reverseIssuance { settlementId status } } }`,
      id,
    )
  )['settlement']!;

/** What a provider's SUCCESS commits: both in one transaction (tax-invoice flows). */
async function providerSuccess(id: string): Promise<void> {
  await orm()
    .em.fork()
    .transactional(async (tx) => {
      await tx.execute(`update reverse_issuance set status = 'SUCCESS' where settlement_id = ?`, [
        id,
      ]);
      await tx.execute(`update settlement set partner_invoice_received_at = now() where id = ?`, [
        id,
      ]);
    });
}

beforeAll(async () => {
  await insertDefaultAgency(em());
  const partner = await services.partners.createPartner(em(), {
    name: 'Partner',
    entityType: 'INDIVIDUAL',
    email: 'partner@example.com',
  });
  const advertiser = await services.partners.createAdvertiser(em(), {
    name: 'Advertiser',
    email: 'ads@example.com',
  });
  const campaign = await services.campaigns.create(
    em(),
    {
      partnerId: Number(partner.id),
      advertiserId: Number(advertiser.id),
      agencyId: null,
      title: 'Campaign',
      price: '1000000.00',
    },
    admin,
  );
  await services.campaignUpload.markUploaded(em(), campaign.id, admin);
  settlementId = (await em().findOneOrFail(Settlement, { campaignId: campaign.id })).id;
  await em().execute(`insert into reverse_issuance (settlement_id, issuance_key) values (?, ?)`, [
    settlementId,
    `reverse-${settlementId}`,
  ]);
  schema = (await buildSettlementSchema()).schema;
  hookPool();
});

describe('a settlement detail is one snapshot', () => {
  it('a commit after its first statement shows in none of the answer, then in all of it', async () => {
    let committed = false;
    afterNextStatement = async () => {
      await providerSuccess(settlementId);
      committed = true;
    };
    const first = await detail(settlementId);
    expect(committed).toBe(true);
    expect(first).toMatchObject({
      id: settlementId,
      partnerInvoiceReceivedAt: null,
      partner: { name: 'Partner' },
      reverseIssuance: { settlementId, status: 'PENDING' },
    });
    const again = await detail(settlementId);
    expect(again['partnerInvoiceReceivedAt']).not.toBeNull();
    expect(again['reverseIssuance']).toEqual({ settlementId, status: 'SUCCESS' });
  });

  it('answers what the separate reads of a list give, field for field', async () => {
    const one = await run(
      `query($id: ID!) { settlement(id: $id) { ${EVERY_FIELD} } }`,
      settlementId,
    );
    const page = await run(
      `query($id: ID) { settlements(filter: { partnerId: $id }) { items { ${EVERY_FIELD} } } }`,
      String(one['settlement']!['partnerId']),
    );
    expect(page['settlements']!['items']).toEqual([one['settlement']]);
  });
});

import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { connectSql, type StackUrls, type Sql } from '@campaign/stack';
import { awaitBoot } from '../support/background-boot.js';
import { cliFor } from '../support/cli.js';
import { eventually, mailsTo, type SinkMail } from '../support/sinks.js';
import { MAX_ATTEMPTS } from './support/notification-stack.js';

/**
 * Issue 11: outbox delivery when the mail server fails (DESIGN S10). A stack of its own, so that
 * only this file's messages meet the failures it arms (`POST /_sim/fail-next` on the sink makes
 * its next n messages fail with SMTP 451) and nothing else sends mail meanwhile: each assertion
 * counts exactly which attempts failed (`MAX_ATTEMPTS`). The stack boots while the first tiers
 * run (`support/notification-stack.ts`).
 */
let stack: { urls: StackUrls };
let db: Sql;
let admin: string;
let partnerToken: string;
let partnerId: number;
let seq = 0;

async function graphql<T>(query: string, variables: Record<string, unknown>, token = admin) {
  const response = await fetch(stack.urls.gateway, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ query, variables }),
  });
  return (await response.json()) as {
    data?: T;
    errors?: { message: string; extensions?: Record<string, unknown> }[];
  };
}

async function graphqlOk<T>(query: string, variables: Record<string, unknown> = {}): Promise<T> {
  const result = await graphql<T>(query, variables);
  if (result.errors?.length) throw new Error(JSON.stringify(result.errors));
  return result.data!;
}

async function rest(method: string, path: string, token: string): Promise<number> {
  const response = await fetch(`${stack.urls.rest}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}` },
  });
  await response.arrayBuffer();
  return response.status;
}

const failNext = (count: number) =>
  fetch(`${stack.urls.mailSink}/_sim/fail-next`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ count }),
  });

/** A requested DIRECT_INVOICE settlement of a new advertiser: one e-mail to that address. */
async function directRequest(): Promise<{ id: string; to: string }> {
  const to = `faults-${process.pid}-${++seq}@notify.example`;
  const { createAdvertiser } = await graphqlOk<{ createAdvertiser: { id: number } }>(
    `mutation($input: CreateAdvertiserInput!) { createAdvertiser(input: $input) { id } }`,
    { input: { name: `Advertiser ${seq}`, email: to } },
  );
  const { createCampaign } = await graphqlOk<{ createCampaign: { id: string } }>(
    `mutation($input: CreateCampaignInput!) { createCampaign(input: $input) { id } }`,
    {
      input: {
        partnerId,
        advertiserId: createAdvertiser.id,
        title: `Faults ${seq}`,
        price: '1234567.00',
        settlementType: 'DIRECT_INVOICE',
      },
    },
  );
  const { markCampaignUploaded } = await graphqlOk<{
    markCampaignUploaded: { settlement: { id: string } };
  }>(`mutation($id: ID!) { markCampaignUploaded(id: $id) { settlement { id } } }`, {
    id: createCampaign.id,
  });
  const id = markCampaignUploaded.settlement.id;
  // The change commits whatever the mail server does.
  expect(await rest('POST', `/api/partner/settlements/${id}/request`, partnerToken)).toBe(200);
  return { id, to };
}

interface Row extends Record<string, unknown> {
  id: string;
  event: string;
  status: string;
  attempts: number;
  last_error: string | null;
}

const emailRows = (id: string) =>
  db.query<Row>(
    `select id::text as id, event, status, attempts, last_error from outbox
      where settlement_id = $1 and channel = 'EMAIL' order by outbox.id`,
    [id],
  );

/** The settlement's e-mail rows once none is PENDING (the sink may see a mail before its commit). */
const settledRows = (id: string) =>
  eventually(
    () => emailRows(id),
    (rows) => rows.length > 0 && rows.every((row) => row.status !== 'PENDING'),
    `the e-mails of ${id} settled`,
  );

const delivered = (to: string, count: number) =>
  eventually(
    () => mailsTo(stack.urls.mailSink!, to),
    (mails: SinkMail[]) => mails.length >= count,
    `${count} e-mail(s) to ${to}`,
  );

beforeAll(async () => {
  stack = { urls: await awaitBoot<StackUrls>(inject('notificationStackBoot')) };
  db = await connectSql(stack.urls.settlementDatabase);
  admin = await cliFor(stack.urls, 'auth:token', '--role', 'SUPER_ADMIN');
  const { createPartner } = await graphqlOk<{ createPartner: { id: number } }>(
    `mutation($input: CreatePartnerInput!) { createPartner(input: $input) { id } }`,
    {
      input: {
        name: 'Faults Partner',
        entityType: 'INDIVIDUAL',
        email: 'faults-partner@notify.example',
        bankName: 'Kakao Bank',
        accountNumber: '3333-01-7654321',
        accountHolder: 'Faults Holder',
      },
    },
  );
  partnerId = createPartner.id;
  partnerToken = await cliFor(
    stack.urls,
    'auth:token',
    '--role',
    'PARTNER',
    '--partner',
    String(partnerId),
  );
  // The demo data's e-mails go out at start; the failures armed below must meet only ours. The
  // provider answers the demo invoices' tax-invoice issuance a moment later and each answer
  // sends an e-mail too: quiet means no e-mail waiting and no open settlement's issuance waiting
  // (the cancelled demo settlement's stays PENDING and sends nothing).
  await eventually(
    () =>
      db.query<{ n: number }>(
        `select (select count(*) from outbox where channel = 'EMAIL' and status = 'PENDING')
              + (select count(*) from advertiser_invoice i join settlement s
                   on s.advertiser_invoice_id = i.id and s.status <> 'SETTLEMENT_CANCELLED'
                  where i.tax_invoice_status = 'PENDING') as n`,
      ),
    (rows) => Number(rows[0]!.n) === 0,
    'the demo e-mails delivered',
  );
}, 180_000);

afterAll(async () => {
  await db?.end();
}, 60_000);

describe('e-mail delivery when the mail server fails', () => {
  it('the change commits, the message waits and is retried, and arrives exactly once', async () => {
    // Three failures, fewer than the attempts a message has: it must get through.
    expect((await failNext(MAX_ATTEMPTS - 1)).status).toBe(200);
    const { id, to } = await directRequest();
    const [mail] = await delivered(to, 1);
    const [row] = await settledRows(id);
    expect(row).toMatchObject({
      event: 'DIRECT_SETTLEMENT_REQUEST',
      status: 'SENT',
      attempts: MAX_ATTEMPTS,
      last_error: expect.stringMatching(/451 Temporary failure \(simulated\)/),
    });
    expect(mail!.headers['x-event']).toBe('DIRECT_SETTLEMENT_REQUEST');
    expect(mail!.messageId).toMatch(new RegExp(`^<${id}\\.v\\d+\\.DIRECT_SETTLEMENT_REQUEST\\.`));
    // Once per Message-ID, and nothing more arrives after the row is SENT.
    expect(await mailsTo(stack.urls.mailSink!, to)).toHaveLength(1);
  });

  it(`ends DEAD after ${MAX_ATTEMPTS} failed attempts; an admin re-queues it and it arrives once`, async () => {
    expect((await failNext(MAX_ATTEMPTS)).status).toBe(200);
    const { id, to } = await directRequest();
    const query = `query($id: ID) { deadOutboxMessages(settlementId: $id) { total items {
      id event channel recipient settlementId status attempts lastError deadAt } } }`;
    const { deadOutboxMessages } = await eventually(
      () =>
        graphqlOk<{ deadOutboxMessages: { total: number; items: Record<string, unknown>[] } }>(
          query,
          { id },
        ),
      (data) => data.deadOutboxMessages.total === 1,
      'the message DEAD',
    );
    const dead = deadOutboxMessages.items[0]!;
    expect(dead).toMatchObject({
      event: 'DIRECT_SETTLEMENT_REQUEST',
      channel: 'EMAIL',
      recipient: to,
      settlementId: id,
      status: 'DEAD',
      attempts: MAX_ATTEMPTS,
      lastError: expect.stringMatching(/451/),
      deadAt: expect.any(String),
    });
    expect(await mailsTo(stack.urls.mailSink!, to)).toEqual([]);

    // Only admins, and only a DEAD message.
    const refusedCode = async (token: string) =>
      (
        await graphql(
          `
            mutation ($id: ID!) {
              requeueOutboxMessage(id: $id) {
                id
              }
            }
          `,
          { id: dead['id'] },
          token,
        )
      ).errors?.[0]?.extensions?.['code'];
    expect(await refusedCode(partnerToken)).toBe('PERMISSION_DENIED');
    const otherAgency = await cliFor(stack.urls, 'auth:token', '--role', 'ADMIN', '--agency', '2');
    expect(await refusedCode(otherAgency)).toBe('NOT_FOUND');

    const { requeueOutboxMessage } = await graphqlOk<{
      requeueOutboxMessage: Record<string, unknown>;
    }>(`mutation($id: ID!) { requeueOutboxMessage(id: $id) { id status attempts deadAt } }`, {
      id: dead['id'],
    });
    expect(requeueOutboxMessage).toEqual({
      id: dead['id'],
      status: 'PENDING',
      attempts: 0,
      deadAt: null,
    });
    const mails = await delivered(to, 1);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.messageId).toMatch(
      new RegExp(`^<${id}\\.v\\d+\\.DIRECT_SETTLEMENT_REQUEST\\.`),
    );
    expect(await settledRows(id)).toEqual([
      expect.objectContaining({ status: 'SENT', attempts: 1 }),
    ]);
    const again = await graphql(
      `
        mutation ($id: ID!) {
          requeueOutboxMessage(id: $id) {
            id
          }
        }
      `,
      { id: dead['id'] },
    );
    expect(again.errors?.[0]?.extensions?.['code']).toBe('CONFLICT');
  });
});

import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { connectSql, type Sql } from '@campaign/stack';
import { newParty, newSettlement, restsOf, type Party } from './support/settlement-load.js';
import { call, faults, graphqlOk, systemDown, systemUp, until } from './support/fault-stack.js';

/**
 * Issue 23 item 1 under faults: the cancellation tax invoice when the provider is unreachable
 * during the cancel, when the provider's result arrives after the cancel, and with two replicas
 * taking the cancel and delivering the outbox at once. Whatever happens, the issued tax invoice
 * is annulled exactly once and the advertiser told once; a cancelled invoice is never revived.
 */
type Doc = Record<string, unknown>;
let party: Party;
let db: Sql;
let seq = 0;

beforeAll(async () => {
  party = await newParty(faults().urls.gateway);
  db = await connectSql(faults().urls.settlementDatabase);
});
afterAll(() => db?.end());
afterEach(() => systemUp('taxInvoice'));

/** A settlement of an advertiser named for a provider scenario, its invoice asked for. */
async function askedFor(prefix: string) {
  const email = `faults-cancel-${process.pid}-${++seq}@notify.example`;
  const { createAdvertiser } = await graphqlOk<{ createAdvertiser: { id: number } }>(
    faults().urls.gateway,
    party.admin,
    `mutation($input: CreateAdvertiserInput!) { createAdvertiser(input: $input) { id } }`,
    { input: { name: `${prefix}Cancel Advertiser ${process.pid}-${seq}`, email } },
  );
  const id = await newSettlement(faults().urls.gateway, {
    ...party,
    advertiserId: createAdvertiser.id,
  });
  const asked = await admin('POST', id, '/retry-issuance');
  expect(asked.status).toBe(200);
  const key = String(invoiceOf(asked.body)['taxInvoiceIssuanceKey']);
  return { id, email, key };
}

const admin = (
  method: string,
  id: string,
  suffix = '',
  rest = faults().urls.rest,
  body?: unknown,
) =>
  call<{ data: Doc }>(rest, method, `/api/admin/settlements/${id}${suffix}`, {
    token: party.admin,
    ...(body === undefined ? {} : { body }),
  });
const invoiceOf = (body: { data: Doc }) => (body.data['advertiserInvoice'] ?? {}) as Doc;
const invoice = async (id: string) => invoiceOf((await admin('GET', id)).body);
const untilInvoice = (id: string, what: string, done: (invoice: Doc) => boolean) =>
  until(() => invoice(id), done, `${id}: ${what}`, 60_000);

const simulator = async (method: string, path: string, body?: unknown) => {
  const response = await fetch(`${faults().taxInvoice}${path}`, {
    method,
    headers: { 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return (await response.json()) as Doc;
};
const atProvider = (key: string) => simulator('GET', `/v1/issuances/${key}`);
/** Has the simulator decide now what it would decide after its delay (no waiting it out). */
const decideNow = (issuanceKey: string) => simulator('POST', '/_sim/decide-now', { issuanceKey });

/** Rows of one event of a settlement, with their attempts and status. */
const rows = (id: string, event: string) =>
  db.query<{ attempts: number; status: string }>(
    'select attempts, status from outbox where settlement_id = $1 and event = $2',
    [id, event],
  );
const mails = async (to: string, event: string) => {
  const response = await fetch(`${faults().mailSink}/messages?to=${encodeURIComponent(to)}`);
  return ((await response.json()) as Doc[]).filter(
    (m) => (m['headers'] as Record<string, string>)['x-event'] === event,
  );
};

describe('cancellation tax invoice under faults', () => {
  it('provider down during the cancel: the cancellation waits in the outbox, issued once when back', async () => {
    const { id, email, key } = await askedFor('instant_');
    const issued = await untilInvoice(id, 'issued', (i) => i['taxInvoiceStatus'] === 'SUCCESS');
    await systemDown('taxInvoice');
    const cancelled = await admin('POST', id, '/cancel', faults().urls.rest, { reason: 'outage' });
    expect(cancelled.body.data['status']).toBe('SETTLEMENT_CANCELLED');
    await until(
      () => rows(id, 'TAX_INVOICE_CANCELLATION_REQUEST'),
      (r) => r.length === 1 && r[0]!.attempts >= 1 && r[0]!.status === 'PENDING',
      'the cancellation request tried while the provider is down',
    );
    expect(await invoice(id)).toMatchObject({
      status: 'CANCELLED',
      cancellationTaxInvoiceStatus: 'PENDING',
    });
    expect((await atProvider(key))['cancelledBy']).toBeNull();

    await systemUp('taxInvoice');
    const annulled = await untilInvoice(
      id,
      'annulled',
      (i) => i['cancellationTaxInvoiceStatus'] === 'SUCCESS',
    );
    expect(annulled['taxInvoiceNumber']).toBe(issued['taxInvoiceNumber']);
    expect(await atProvider(key)).toMatchObject({
      status: 'SUCCESS',
      cancelledBy: annulled['cancellationTaxInvoiceIssuanceKey'],
    });
    await until(
      () => mails(email, 'INVOICE_CANCELLED_ADVERTISER'),
      (m) => m.length > 0,
      'mail',
    );
    expect(await rows(id, 'TAX_INVOICE_CANCELLATION_REQUEST')).toHaveLength(1);
    expect(await mails(email, 'INVOICE_CANCELLED_ADVERTISER')).toHaveLength(1);
  });

  it('late webhook after the cancel: the issue is stored and annulled, the invoice stays cancelled', async () => {
    const { id, email, key } = await askedFor('');
    await until(
      () => atProvider(key),
      (i) => i['status'] === 'PENDING',
      'request at provider',
    );
    // The platform cannot reach the provider (the withdrawal waits); the provider still decides
    // and calls the webhook, after the cancel.
    await systemDown('taxInvoice');
    const cancelled = await admin('POST', id, '/cancel', faults().urls.rest, { reason: 'late' });
    expect(cancelled.body.data['status']).toBe('SETTLEMENT_CANCELLED');
    await until(
      () => rows(id, 'TAX_INVOICE_FORWARD_WITHDRAW_REQUEST'),
      (r) => r.length === 1 && r[0]!.attempts >= 1,
      'the withdrawal tried while the provider is down',
    );
    await decideNow(key);
    const late = await untilInvoice(
      id,
      'the late issue stored',
      (i) => i['taxInvoiceNumber'] !== null,
    );
    expect(late).toMatchObject({
      status: 'CANCELLED',
      taxInvoiceStatus: 'SUCCESS',
      cancellationTaxInvoiceStatus: 'PENDING',
    });
    expect((await admin('GET', id)).body.data['status']).toBe('SETTLEMENT_CANCELLED');

    await systemUp('taxInvoice');
    const cancelKey = String(late['cancellationTaxInvoiceIssuanceKey']);
    const annulled = await until(
      async () => {
        await decideNow(cancelKey);
        return invoice(id);
      },
      (i) => i['cancellationTaxInvoiceStatus'] === 'SUCCESS',
      'the cancellation decided and reported by webhook',
      60_000,
    );
    expect(annulled['status']).toBe('CANCELLED');
    expect(await atProvider(key)).toMatchObject({ status: 'SUCCESS', cancelledBy: cancelKey });
    await until(
      () => mails(email, 'INVOICE_CANCELLED_ADVERTISER'),
      (m) => m.length > 0,
      'mail',
    );
    expect(await mails(email, 'INVOICE_ISSUED_ADVERTISER')).toEqual([]);
  });

  it('two replicas: cancels sent to both at once annul the issued tax invoice once', async () => {
    const rests = restsOf(faults().replicas);
    expect(rests).toHaveLength(2);
    const { id, email, key } = await askedFor('twice_');
    await until(
      async () => {
        await decideNow(key);
        return invoice(id);
      },
      (i) => i['taxInvoiceStatus'] === 'SUCCESS',
      'issued (webhook twice)',
    );
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, i) => admin('POST', id, '/cancel', rests[i % 2]!, {})),
    );
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    const { cancellationTaxInvoiceIssuanceKey: cancelKey } = await untilInvoice(
      id,
      'cancellation asked',
      (i) =>
        i['cancellationTaxInvoiceStatus'] === 'PENDING' ||
        i['cancellationTaxInvoiceStatus'] === 'SUCCESS',
    );
    await until(
      async () => {
        await decideNow(String(cancelKey));
        return invoice(id);
      },
      (i) => i['cancellationTaxInvoiceStatus'] === 'SUCCESS',
      'annulled',
    );
    // The provider's `twice_` webhook for the cancellation arrives twice; applied once.
    await until(
      () =>
        db.query<{ deliveries: number }>(
          'select deliveries from tax_invoice_webhook_event where issuance_key = $1',
          [cancelKey],
        ),
      (r) => r.length === 1 && r[0]!.deliveries === 2,
      'both webhook copies received',
    );
    await until(
      () => rows(id, 'INVOICE_CANCELLED_ADVERTISER'),
      (r) => r.length === 1 && r[0]!.status === 'SENT',
      'the e-mail sent',
    );
    expect(await rows(id, 'TAX_INVOICE_CANCELLATION_REQUEST')).toHaveLength(1);
    expect(await mails(email, 'INVOICE_CANCELLED_ADVERTISER')).toHaveLength(1);
    expect((await atProvider(String(cancelKey)))['kind']).toBe('CANCELLATION');
  });
});

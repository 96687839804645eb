import type { Sql } from '@campaign/stack';
import { DEVELOPMENT_SECRETS, signWebhook } from '@campaign/platform';
import { graphqlOk, rest, stack, type HttpResult } from '../support/clients.js';
import { eventually } from '../support/sinks.js';
import * as f from './support.js';

/**
 * Fixtures of the tax-invoice whole-stack tests. The simulated provider decides by the
 * counterparty's name (docs/settlement.md): `instant_`, `fail_`, `down_`, `twice_`, `manual_`
 * (only the approval page decides), anything else succeeds by webhook after the test delay.
 */

let seq = 0;
const named = (prefix: string, label: string) => `${prefix}${label} ${process.pid}-${++seq}`;

/** A business registration number with a valid check digit (the provider needs one). */
export const PARTNER_BUSINESS_NUMBER = '1018623450';

export async function advertiser(
  admin: string,
  prefix = '',
): Promise<{ id: number; name: string; email: string }> {
  const name = named(prefix, 'Advertiser');
  const email = `tax-advertiser-${process.pid}-${seq}@example.com`;
  const { createAdvertiser } = await graphqlOk<{ createAdvertiser: { id: number } }>(
    `mutation($input: CreateAdvertiserInput!) { createAdvertiser(input: $input) { id } }`,
    { input: { name, email } },
    admin,
  );
  return { id: createAdvertiser.id, name, email };
}

/** A business partner named for a scenario, with its token. */
export async function businessPartner(
  admin: string,
  prefix = '',
  entityType: 'CORPORATE_BUSINESS' | 'INDIVIDUAL_BUSINESS' = 'CORPORATE_BUSINESS',
): Promise<{ id: number; token: string; email: string }> {
  const email = `tax-partner-${process.pid}-${++seq}@example.com`;
  const id = await f.createPartner(admin, entityType, {
    name: named(prefix, 'Partner'),
    email,
    businessNumber: PARTNER_BUSINESS_NUMBER,
  });
  return { id, token: await f.partnerToken(id), email };
}

/** A new settlement between a business partner and an advertiser both named for `prefix`. */
export async function scenarioSettlement(admin: string, prefix = '') {
  const [partner, buyer] = await Promise.all([
    businessPartner(admin, prefix),
    advertiser(admin, prefix),
  ]);
  const id = await f.newSettlement(admin, { partnerId: partner.id, advertiserId: buyer.id });
  return { id, partner, advertiser: buyer };
}

/**
 * A settlement of a business partner named for `prefix` (the advertiser `down_`: its invoice
 * stays out of the scenario), requested by the partner: the request's answer.
 */
export async function requestedBy(
  admin: string,
  prefix: string,
  entityType?: 'CORPORATE_BUSINESS' | 'INDIVIDUAL_BUSINESS',
) {
  const partner = await businessPartner(admin, prefix, entityType);
  const { id: advertiserId } = await advertiser(admin, 'down_');
  const id = await f.newSettlement(admin, { partnerId: partner.id, advertiserId });
  const requested = await f.expectOk(f.call('POST', f.partnerPath(id, '/request'), partner.token));
  return { id, partner, requested };
}

/** Polls `read` until `done` holds (at most `timeoutMs`); the last value read. */
export const waitFor = <T>(
  what: string,
  read: () => Promise<T>,
  done: (value: T) => boolean,
  timeoutMs = 20_000,
): Promise<T> => eventually(read, done, what, timeoutMs);

/** The admin's view of a settlement. */
export const detail = (admin: string, id: string) =>
  f.expectOk(f.call('GET', f.adminPath(id), admin));

export type Doc = Record<string, unknown>;
export const invoiceOf = (s: f.SettlementBody) => (s.advertiserInvoice ?? {}) as Doc;
export const reverseOf = (s: f.SettlementBody) => (s.reverseIssuance ?? {}) as Doc;

/**
 * Has the simulated provider take now the decision it would take after TEST_TAX_INVOICE_DELAY_MS
 * for `issuanceKey` (tests wait for the result, not for the delay). By key: other files' issuances
 * keep their own timing.
 */
export async function decideNow(issuanceKey: string): Promise<void> {
  const response = await fetch(`${stack().taxInvoice}/_sim/decide-now`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ issuanceKey }),
  });
  await response.arrayBuffer();
}

/** The settlement's detail, the provider having decided the issuance `keyOf` names. */
const decidedDetail = async (
  admin: string,
  id: string,
  status: string,
  keyOf: (s: f.SettlementBody) => unknown,
) => {
  const before = await detail(admin, id);
  const key = keyOf(before);
  if (status === 'PENDING' || typeof key !== 'string') return before;
  await decideNow(key);
  return detail(admin, id);
};

/** Waits until the settlement's advertiser invoice has its provider status `status`. */
export const untilInvoice = (admin: string, id: string, status: string) =>
  waitFor(
    `invoice of ${id}`,
    () => decidedDetail(admin, id, status, (s) => invoiceOf(s)['taxInvoiceIssuanceKey']),
    (s) => invoiceOf(s)['taxInvoiceStatus'] === status,
  );

/** Waits until the settlement's reverse issuance is `status`. */
export const untilReverse = (admin: string, id: string, status: string) =>
  waitFor(
    `reverse issuance of ${id}`,
    () => decidedDetail(admin, id, status, (s) => reverseOf(s)['issuanceKey']),
    (s) => reverseOf(s)['status'] === status,
  );

/** The simulated provider's own record of an issuance. */
export async function atProvider(issuanceKey: string): Promise<Doc> {
  const response = await fetch(`${stack().taxInvoice}/v1/issuances/${issuanceKey}`);
  return (await response.json()) as Doc;
}

/** The webhook ledger's row of each event of a key: deliveries counted, applied or not. */
export function ledger(db: Sql, issuanceKey: string) {
  return db.query<{ event_id: string; deliveries: number; applied: boolean; status: string }>(
    `select event_id, deliveries, applied, status from tax_invoice_webhook_event
     where issuance_key = $1 order by received_at`,
    [issuanceKey],
  );
}

export async function eventsOf(db: Sql, id: string): Promise<string[]> {
  return (await f.outboxOf(db, id)).map((row) => row.event);
}

export const count = (events: string[], event: string) => events.filter((e) => e === event).length;

export const WEBHOOK_PATH = '/api/webhooks/tax-invoice';

/** A webhook delivery as the provider sends it, signed now or at `at` (unix seconds). */
export function deliver(
  rawBody: string,
  signature: string | null = signWebhook(DEVELOPMENT_SECRETS.webhook, rawBody),
): Promise<HttpResult<f.Envelope<{ applied: boolean }>>> {
  return rest<f.Envelope<{ applied: boolean }>>('POST', WEBHOOK_PATH, {
    body: rawBody,
    headers: signature === null ? {} : { 'x-signature': signature },
  });
}

export const sign = (rawBody: string, at?: number) =>
  signWebhook(DEVELOPMENT_SECRETS.webhook, rawBody, at);

let events = 0;
/** A provider result event, as the webhook body (DESIGN.md section 5). */
export function resultEvent(
  issuanceKey: string,
  kind: 'FORWARD' | 'REVERSE',
  status: 'SUCCESS' | 'FAILURE' | 'CANCELLED' = 'SUCCESS',
): Doc {
  const n = ++events;
  return {
    eventId: `test-${process.pid}-${Date.now()}-${n}`,
    issuanceKey,
    kind,
    status,
    ...(status === 'SUCCESS'
      ? {
          taxInvoiceNumber: `20261201-41000099-${String(n).padStart(8, '0')}`,
          documentUrl: `https://provider.test/documents/${n}`,
        }
      : {}),
    ...(status === 'FAILURE' ? { failureCode: 'NTS_REJECTED', failureMessage: 'refused' } : {}),
    occurredAt: new Date().toISOString(),
  };
}

/** The e-mails the sink received for `to`, once one with `X-Event: event` is there. */
export async function mailTo(to: string, event: string): Promise<Doc[]> {
  const read = async () => {
    const response = await fetch(`${stack().mailSink}/messages?to=${encodeURIComponent(to)}`);
    return ((await response.json()) as Doc[]).filter(
      (m) => (m['headers'] as Record<string, string>)['x-event'] === event,
    );
  };
  return waitFor(`${event} e-mail to ${to}`, read, (mails) => mails.length > 0);
}

/** The team-chat messages of a settlement's thread, once one starts with `[event]`. */
export async function chatOf(thread: string, event: string): Promise<Doc[]> {
  const read = async () => {
    const response = await fetch(`${stack().chat}/messages?thread=${encodeURIComponent(thread)}`);
    return ((await response.json()) as Doc[]).filter((m) =>
      String(m['text']).startsWith(`[${event}]`),
    );
  };
  return waitFor(`[${event}] in thread ${thread}`, read, (messages) => messages.length > 0);
}

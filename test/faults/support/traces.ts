import { randomBytes } from 'node:crypto';
import type { StackUrls } from '@campaign/stack';
import { cliFor } from '../../support/cli.js';
import type { ReceivedSpan } from '../../support/otlp-receiver.js';
import { eventually } from '../../support/sinks.js';
import { call, graphqlOk } from './fault-stack.js';

/** Polls until `read` gives something (not null). */
export async function waitFor<T>(read: () => Promise<T | null>, what: string): Promise<T> {
  return (await eventually(read, (value) => value !== null, what)) as T;
}

export const traceIdOf = () => randomBytes(16).toString('hex');
/** A client's W3C traceparent in trace `traceId` (sampled). */
export const traceparent = (traceId: string) =>
  `00-${traceId}-${randomBytes(8).toString('hex')}-01`;

export const isDatabase = (s: ReceivedSpan) =>
  s.attributes['db.system.name'] === 'postgresql' || s.attributes['db.system'] === 'postgresql';
export const fromService = (service: string) => (s: ReceivedSpan) => s.service === service;
/** An outgoing HTTP call of `service` (span kind CLIENT, with its URL). */
export const clientCallOf = (service: string) => (s: ReceivedSpan) =>
  s.service === service && s.kind === 3 && 'url.full' in s.attributes;

/** Waits until trace `traceId` has spans matching every predicate; returns the trace's spans. */
export function traceWith(
  spans: readonly ReceivedSpan[],
  traceId: string,
  wanted: Record<string, (s: ReceivedSpan) => boolean>,
): Promise<ReceivedSpan[]> {
  return waitFor(
    async () => {
      const trace = spans.filter((s) => s.traceId === traceId);
      const missing = Object.entries(wanted).filter(([, test]) => !trace.some(test));
      return missing.length ? null : trace;
    },
    `trace ${traceId} with ${Object.keys(wanted).join(', ')}`,
  );
}

export interface PartyContacts {
  partnerEmail: string;
  advertiserEmail: string;
  bankAccount: string;
}

/**
 * A PLATFORM_SETTLEMENT of a new INDIVIDUAL partner that the partner has requested (so it
 * waits for the advertiser's payment); its id and the partner's token.
 */
export async function requestedSettlement(
  urls: StackUrls,
  admin: string,
  contacts: PartyContacts,
): Promise<{ id: string; partner: string }> {
  const gateway = urls.gateway;
  const { createPartner } = await graphqlOk<{ createPartner: { id: number } }>(
    gateway,
    admin,
    `mutation($input: CreatePartnerInput!) { createPartner(input: $input) { id } }`,
    {
      input: {
        name: `Trace Partner ${Date.now()}`,
        entityType: 'INDIVIDUAL',
        email: contacts.partnerEmail,
        bankName: 'Kakao Bank',
        accountNumber: contacts.bankAccount,
        accountHolder: 'Trace Holder',
      },
    },
  );
  const { createAdvertiser } = await graphqlOk<{ createAdvertiser: { id: number } }>(
    gateway,
    admin,
    `mutation($input: CreateAdvertiserInput!) { createAdvertiser(input: $input) { id } }`,
    { input: { name: `Trace Advertiser ${Date.now()}`, email: contacts.advertiserEmail } },
  );
  const { createCampaign } = await graphqlOk<{ createCampaign: { id: string } }>(
    gateway,
    admin,
    `mutation($input: CreateCampaignInput!) { createCampaign(input: $input) { id } }`,
    {
      input: {
        partnerId: createPartner.id,
        advertiserId: createAdvertiser.id,
        title: 'Traced campaign',
        price: '1000000.00',
      },
    },
  );
  const { markCampaignUploaded } = await graphqlOk<{
    markCampaignUploaded: { settlement: { id: string } };
  }>(gateway, admin, `mutation($id: ID!) { markCampaignUploaded(id: $id) { settlement { id } } }`, {
    id: createCampaign.id,
  });
  const id = markCampaignUploaded.settlement.id;
  const partner = await cliFor(
    urls,
    'auth:token',
    '--role',
    'PARTNER',
    '--partner',
    String(createPartner.id),
  );
  const requested = await call(urls.rest, 'POST', `/api/partner/settlements/${id}/request`, {
    token: partner,
  });
  if (requested.status !== 200)
    throw new Error(`request of ${id}: ${requested.status} ${JSON.stringify(requested.body)}`);
  return { id, partner };
}

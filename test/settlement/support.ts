import { expect } from 'vitest';
import { cli } from '../support/cli.js';
import { graphql, graphqlOk, rest, type HttpResult } from '../support/clients.js';

/** Shared fixtures of the settlement whole-stack tests. */

export * from './rows.js';
export * from './context.js';

export type EntityType = 'CORPORATE_BUSINESS' | 'INDIVIDUAL_BUSINESS' | 'INDIVIDUAL';
export type SettlementType = 'PLATFORM_SETTLEMENT' | 'DIRECT_INVOICE';

export interface Envelope<T = Record<string, unknown>> {
  success: boolean;
  data: T;
  error: { code: string; message: string; httpStatus: number; retryable: boolean };
}

export type SettlementBody = Record<string, unknown> & {
  id: string;
  status: string;
  settlementType: string;
  advertiserInvoice?: Record<string, unknown> | null;
  partnerPayout?: Record<string, unknown> | null;
  reverseIssuance?: Record<string, unknown> | null;
};

/**
 * The amounts of an INDIVIDUAL partner's PLATFORM_SETTLEMENT campaign of 1000005.00: commission
 * 20 + 10 points, 300001.5 rounds half up to 300002; withholding 3.3% of 700003 = 23100.099 → 23100.
 */
export const INDIVIDUAL_AMOUNTS = {
  campaignPrice: '1000005.00',
  commissionRate: '30.00',
  commissionAmount: '300002.00',
  settlementAmount: '700003.00',
  withholdingTaxRate: '3.30',
  withholdingTaxAmount: '23100.00',
  payoutAmount: '676903.00',
};

let seq = 0;
const unique = (label: string) => `${label} ${process.pid}-${Date.now()}-${++seq}`;

/**
 * Default names start with `down_`: the simulated tax-invoice provider is down for these parties
 * (503, nothing kept), so a test that is not about the provider never gets a result from it
 * racing its own steps (an issued invoice, an approved reverse issuance). Tests of the provider
 * name their parties for the scenario they need (tax-invoice-support.ts).
 */
const PROVIDER_DOWN = 'down_';
/** A valid business registration number: the reverse issuance needs one for business partners. */
const BUSINESS_NUMBER = '1018623450';

export function adminToken(agencyId?: string): Promise<string> {
  return agencyId
    ? cli('auth:token', '--role', 'ADMIN', '--agency', agencyId)
    : cli('auth:token', '--role', 'SUPER_ADMIN');
}

export function partnerToken(partnerId: number | string): Promise<string> {
  return cli('auth:token', '--role', 'PARTNER', '--partner', String(partnerId));
}

export async function createPartner(
  token: string,
  entityType: EntityType,
  extra: Record<string, unknown> = {},
): Promise<number> {
  const { createPartner } = await graphqlOk<{ createPartner: { id: number } }>(
    `mutation($input: CreatePartnerInput!) { createPartner(input: $input) { id } }`,
    {
      input: {
        name: unique(`${PROVIDER_DOWN}Partner ${entityType}`),
        ...(entityType === 'INDIVIDUAL' ? {} : { businessNumber: BUSINESS_NUMBER }),
        entityType,
        email: `partner${++seq}@example.com`,
        bankName: 'Kakao Bank',
        accountNumber: '3333-01-1234567',
        accountHolder: 'Test Holder',
        ...extra,
      },
    },
    token,
  );
  return createPartner.id;
}

export async function createAdvertiser(token: string): Promise<number> {
  const { createAdvertiser } = await graphqlOk<{ createAdvertiser: { id: number } }>(
    `mutation($input: CreateAdvertiserInput!) { createAdvertiser(input: $input) { id } }`,
    {
      input: {
        name: unique(`${PROVIDER_DOWN}Advertiser`),
        email: `advertiser${++seq}@example.com`,
      },
    },
    token,
  );
  return createAdvertiser.id;
}

export async function createCampaign(
  token: string,
  input: {
    partnerId: number;
    advertiserId: number;
    price?: string;
    settlementType?: SettlementType;
    agencyId?: number | null;
    commissionRate?: string | null;
  },
): Promise<string> {
  const { createCampaign } = await graphqlOk<{ createCampaign: { id: string } }>(
    `mutation($input: CreateCampaignInput!) { createCampaign(input: $input) { id } }`,
    { input: { title: unique('Campaign'), price: '1000000.00', ...input } },
    token,
  );
  return createCampaign.id;
}

export async function markUploaded(token: string, campaignId: string): Promise<string> {
  const { markCampaignUploaded } = await graphqlOk<{
    markCampaignUploaded: { settlement: { id: string } };
  }>(
    `mutation($id: ID!) { markCampaignUploaded(id: $id) { settlement { id } } }`,
    { id: campaignId },
    token,
  );
  return markCampaignUploaded.settlement.id;
}

/** A new campaign marked UPLOADED: its settlement id. */
export async function newSettlement(
  token: string,
  input: Parameters<typeof createCampaign>[1],
): Promise<string> {
  return markUploaded(token, await createCampaign(token, input));
}

export function adminPath(id: string, suffix = ''): string {
  return `/api/admin/settlements/${id}${suffix}`;
}

export function partnerPath(id: string, suffix = ''): string {
  return `/api/partner/settlements/${id}${suffix}`;
}

/** A REST call that must answer `status`; returns the body's `data`. */
export async function expectOk<T = SettlementBody>(
  result: Promise<HttpResult<Envelope<T>>> | HttpResult<Envelope<T>>,
  status = 200,
): Promise<T> {
  const response = await result;
  expect(response.status, JSON.stringify(response.body)).toBe(status);
  expect(response.body.success).toBe(true);
  return response.body.data;
}

/** A REST call that must fail with `code` and the catalogue's status. */
export async function expectError(
  result: Promise<HttpResult<Envelope>>,
  status: number,
  code: string,
): Promise<Envelope['error']> {
  const response = await result;
  expect(response.status, JSON.stringify(response.body)).toBe(status);
  expect(response.body).toEqual({
    success: false,
    error: {
      code,
      message: expect.any(String),
      httpStatus: status,
      retryable: expect.any(Boolean),
    },
  });
  return response.body.error;
}

export const call = <T = SettlementBody>(
  method: string,
  path: string,
  token: string | undefined,
  body?: unknown,
): Promise<HttpResult<Envelope<T>>> => rest<Envelope<T>>(method, path, { token, body });

/** `confirmPartnerInvoiceReceived`: GraphQL only (no REST path in the specification). */
export async function confirmPartnerInvoiceReceived(
  token: string,
  id: string,
  partnerInvoiceNumber?: string,
): Promise<{ data?: { confirmPartnerInvoiceReceived: SettlementBody }; errors?: GqlError[] }> {
  return graphql(
    `
      mutation ($id: ID!, $input: ConfirmPartnerInvoiceInput) {
        confirmPartnerInvoiceReceived(id: $id, input: $input) {
          id
          status
          partnerInvoiceReceivedAt
          partnerPayout {
            status
            partnerInvoiceNumber
            partnerInvoiceReceivedAt
          }
        }
      }
    `,
    { id, input: partnerInvoiceNumber ? { partnerInvoiceNumber } : null },
    token,
  );
}

export interface GqlError {
  message: string;
  extensions?: Record<string, unknown>;
}

/** Walks a settlement through REST to `status` (PLATFORM_SETTLEMENT; INDIVIDUAL partner). */
export async function walkTo(
  admin: string,
  partner: string,
  id: string,
  status:
    | 'SETTLEMENT_PENDING'
    | 'AWAITING_ADVERTISER_PAYMENT'
    | 'ADVERTISER_PAID'
    | 'PARTNER_PAYOUT_PROCESSING'
    | 'SETTLEMENT_COMPLETED'
    | 'SETTLEMENT_CANCELLED',
): Promise<void> {
  if (status === 'SETTLEMENT_PENDING') return;
  if (status === 'SETTLEMENT_CANCELLED') {
    await expectOk(call('POST', adminPath(id, '/cancel'), admin, { reason: 'test' }));
    return;
  }
  await expectOk(call('POST', partnerPath(id, '/request'), partner));
  if (status === 'AWAITING_ADVERTISER_PAYMENT') return;
  await expectOk(call('PATCH', adminPath(id, '/status'), admin, { status: 'ADVERTISER_PAID' }));
  if (status === 'ADVERTISER_PAID') return;
  await expectOk(call('POST', adminPath(id, '/start-payout'), admin));
  if (status === 'PARTNER_PAYOUT_PROCESSING') return;
  await expectOk(call('POST', adminPath(id, '/complete'), admin));
}

export type Page = { items: SettlementBody[]; nextCursor: string | null; total: number };

/** A list call (GET with query string) that must succeed; returns `data`. */
export function page(path: string, token: string): Promise<Page> {
  return expectOk<Page>(rest<Envelope<Page>>('GET', path, { token }));
}

/** A partner of `entityType` with its token, and an advertiser: the usual cast of a test. */
export async function partnerAndAdvertiser(
  admin: string,
  entityType: EntityType,
): Promise<{ partnerId: number; advertiserId: number; partner: string }> {
  const [partnerId, advertiserId] = await Promise.all([
    createPartner(admin, entityType),
    createAdvertiser(admin),
  ]);
  return { partnerId, advertiserId, partner: await partnerToken(partnerId) };
}

/** One INDIVIDUAL and one CORPORATE_BUSINESS partner, each with its token. */
export async function individualAndCorporate(
  admin: string,
  individualExtra: Record<string, unknown> = {},
  corporateExtra: Record<string, unknown> = {},
): Promise<{
  individual: { id: number; token: string };
  corporate: { id: number; token: string };
}> {
  const [individualId, corporateId] = await Promise.all([
    createPartner(admin, 'INDIVIDUAL', individualExtra),
    createPartner(admin, 'CORPORATE_BUSINESS', corporateExtra),
  ]);
  const [individualToken, corporateToken] = await Promise.all([
    partnerToken(individualId),
    partnerToken(corporateId),
  ]);
  return {
    individual: { id: individualId, token: individualToken },
    corporate: { id: corporateId, token: corporateToken },
  };
}

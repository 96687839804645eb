import type { EntityManager } from '@mikro-orm/postgresql';
import { signWebhook, type Principal } from '@campaign/platform';
import {
  createProviderRequestHandler,
  Settlement,
  type CancellationIssuanceRequest,
  type ForwardIssuanceRequest,
  type Issuance,
  type OutboxRow,
  type ReverseIssuanceRequest,
  type SettlementServices,
  type TaxInvoiceProvider,
} from '@campaign/settlement';
import { insertDefaultAgency } from '../support/service-database.js';

/** Shared fixtures of the tax-invoice service tests: a scriptable provider, parties, rows. */

export const SECRET = 'service-test-webhook-secret';
export const admin: Principal = {
  subject: 'svc',
  role: 'SUPER_ADMIN',
  agencyId: null,
  partnerId: null,
};
export const partnerActor = (id: string): Principal => ({
  subject: 'p',
  role: 'PARTNER',
  agencyId: null,
  partnerId: id,
});

export function issuance(
  issuanceKey: string,
  kind: Issuance['kind'],
  status: Issuance['status'],
  extra: Partial<Issuance> = {},
): Issuance {
  const now = new Date();
  return {
    issuanceKey,
    kind,
    status,
    taxInvoiceNumber: null,
    documentUrl: null,
    failureCode: null,
    failureMessage: null,
    approvalUrl: null,
    approvalUrlExpiresAt: null,
    createdAt: now,
    updatedAt: now,
    ...extra,
  };
}

let urls = 0;
/** A PENDING reverse issuance with a new approval URL, valid 10 minutes. */
export const pendingReverse = (key: string) =>
  issuance(key, 'REVERSE', 'PENDING', {
    approvalUrl: `https://provider.test/approve/${key}/${++urls}`,
    approvalUrlExpiresAt: new Date(Date.now() + 600_000),
  });

/** The provider as each test scripts it; every call is recorded. */
export class FakeProvider implements TaxInvoiceProvider {
  readonly calls: string[] = [];
  readonly forwardRequests: ForwardIssuanceRequest[] = [];
  onForward = async (r: ForwardIssuanceRequest) => issuance(r.issuanceKey, 'FORWARD', 'PENDING');
  onReverse = async (r: ReverseIssuanceRequest) => pendingReverse(r.issuanceKey);
  onReissue = async (key: string) => pendingReverse(key);
  onStatus = async (_key: string): Promise<Issuance | null> => null;
  onCancel = async (key: string) => issuance(key, 'REVERSE', 'CANCELLED');
  onCancellation = async (r: CancellationIssuanceRequest) =>
    issuance(r.issuanceKey, 'CANCELLATION', 'PENDING');

  issueForward(request: ForwardIssuanceRequest) {
    this.calls.push(`forward ${request.issuanceKey}`);
    this.forwardRequests.push(request);
    return this.onForward(request);
  }
  requestReverse(request: ReverseIssuanceRequest) {
    this.calls.push(`reverse ${request.issuanceKey}`);
    return this.onReverse(request);
  }
  reissueApprovalUrl(key: string) {
    this.calls.push(`reissue ${key}`);
    return this.onReissue(key);
  }
  status(key: string) {
    this.calls.push(`status ${key}`);
    return this.onStatus(key);
  }
  cancel(key: string) {
    this.calls.push(`cancel ${key}`);
    return this.onCancel(key);
  }
  issueCancellation(request: CancellationIssuanceRequest) {
    this.calls.push(`cancellation ${request.issuanceKey} of ${request.originalIssuanceKey}`);
    return this.onCancellation(request);
  }
}

export interface Parties {
  advertiserId: number;
  individual: string;
  corporate: string;
  /** A business partner without a business registration number. */
  unnumbered: string;
}

/** A partner's entity type, as createPartner takes it. */
type EntityType = Parameters<SettlementServices['partners']['createPartner']>[1]['entityType'];

export async function createParties(
  services: SettlementServices,
  em: () => EntityManager,
): Promise<Parties> {
  await insertDefaultAgency(em());
  const partner = async (name: string, entityType: EntityType, businessNumber: string | null) =>
    (
      await services.partners.createPartner(em(), {
        name,
        entityType,
        email: `${name.toLowerCase().replaceAll(' ', '.')}@example.com`,
        businessNumber,
        bankName: 'Kakao Bank',
        accountNumber: '3333-01-1234567',
        accountHolder: 'Holder',
      })
    ).id;
  const advertiser = await services.partners.createAdvertiser(em(), {
    name: 'Glow Cosmetics',
    email: 'ads@glow.example',
  });
  return {
    advertiserId: Number(advertiser.id),
    individual: await partner('Minseo Park', 'INDIVIDUAL', null),
    corporate: await partner('Han River Media', 'CORPORATE_BUSINESS', '101-86-23450'),
    unnumbered: await partner('Nameless Studio', 'INDIVIDUAL_BUSINESS', null),
  };
}

/** A PLATFORM_SETTLEMENT of 1,000,000 for `partnerId`, UPLOADED: its id. */
export async function newSettlement(
  services: SettlementServices,
  em: () => EntityManager,
  parties: Parties,
  partnerId: string,
): Promise<string> {
  const campaign = await services.campaigns.create(
    em(),
    {
      partnerId: Number(partnerId),
      advertiserId: parties.advertiserId,
      title: 'Serum reels',
      price: '1000000.00',
      settlementType: 'PLATFORM_SETTLEMENT',
    },
    admin,
  );
  await services.campaignUpload.markUploaded(em(), campaign.id, admin);
  return (await em().findOneOrFail(Settlement, { campaignId: campaign.id })).id;
}

/** The outbox worker's part: hands every provider row not handed yet to the channel handler. */
export function providerChannel(
  provider: TaxInvoiceProvider,
  services: SettlementServices,
  em: () => EntityManager,
) {
  const handler = createProviderRequestHandler({ provider, em, services });
  const done = new Set<string>();
  return async (settlementId: string): Promise<void> => {
    const rows = await em().execute<(OutboxRow & { dedupe_key: string })[]>(
      `select id::text as id, event, channel, recipient, settlement_id as "settlementId", payload,
              dedupe_key as "dedupeKey", attempts
       from outbox where settlement_id = ? and channel = 'TAX_INVOICE_PROVIDER' order by id`,
      [settlementId],
    );
    for (const row of rows) {
      if (done.has(row.id)) continue;
      done.add(row.id);
      await handler(row);
    }
  };
}

/** The events of a settlement's outbox rows, in order, and the payload of each. */
export async function outbox(em: EntityManager, settlementId: string) {
  return em.execute<{ event: string; payload: Record<string, unknown> }[]>(
    'select event, payload from outbox where settlement_id = ? order by id',
    [settlementId],
  );
}

/** A webhook delivery as the provider signs it (`at`: the signature's time, unix seconds). */
export function signed(event: Record<string, unknown>, at?: number) {
  const rawBody = JSON.stringify(event);
  return { rawBody, signature: signWebhook(SECRET, rawBody, at) };
}

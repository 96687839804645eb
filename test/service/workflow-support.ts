import { beforeAll, expect } from 'vitest';
import type { Principal } from '@campaign/platform';
import { SettlementAuditEntry } from '@campaign/settlement';
import { Campaign } from '@campaign/settlement';
import { AdvertiserInvoice } from '@campaign/settlement';
import { PartnerPayout } from '@campaign/settlement';
import { ReverseIssuance } from '@campaign/settlement';
import { Settlement } from '@campaign/settlement';
import type { SettlementType } from '@campaign/settlement';
import { insertDefaultAgency, useSettlementServices } from '../support/service-database.js';
import { eventually } from '../support/wait.js';

/**
 * The settlement service tests' world: a database of the file's own (real PostgreSQL), the
 * services as the resolvers create them, two partners, an advertiser, and readers of what a
 * trigger wrote. Hooks of the calling file.
 */
export function useWorkflow() {
  const { services, em, admin, orm } = useSettlementServices();
  const partners = {} as Record<
    'INDIVIDUAL' | 'CORPORATE_BUSINESS',
    { id: string; actor: Principal }
  >;
  let advertiserId: number;

  beforeAll(async () => {
    await insertDefaultAgency(em());
    for (const entityType of ['INDIVIDUAL', 'CORPORATE_BUSINESS'] as const) {
      const { id } = await services.partners.createPartner(em(), {
        name: `Partner ${entityType}`,
        entityType,
        email: `${entityType.toLowerCase()}@example.com`,
        // A business partner cannot request settlement without one (issue 23).
        businessNumber: entityType === 'INDIVIDUAL' ? null : '101-86-23450',
        bankName: 'Kakao Bank',
        accountNumber: '3333-01-1234567',
        accountHolder: 'Holder',
      });
      const actor: Principal = { subject: 'p', role: 'PARTNER', agencyId: null, partnerId: id };
      partners[entityType] = { id, actor };
    }
    const advertiser = await services.partners.createAdvertiser(em(), {
      name: 'Glow Cosmetics',
      email: 'ads@glow.example',
    });
    advertiserId = Number(advertiser.id);
  });

  /** A campaign of 1,000,000 marked UPLOADED: its settlement's id. */
  async function newSettlement(
    partner: keyof typeof partners,
    settlementType: SettlementType = 'PLATFORM_SETTLEMENT',
  ): Promise<string> {
    const campaign = await services.campaigns.create(
      em(),
      {
        partnerId: Number(partners[partner].id),
        advertiserId,
        title: 'Campaign',
        price: '1000000.00',
        settlementType,
      },
      admin,
    );
    await services.campaignUpload.markUploaded(em(), campaign.id, admin);
    return (await em().findOneOrFail(Settlement, { campaignId: campaign.id })).id;
  }

  /** Everything one settlement's changes wrote, read fresh. */
  async function rows(id: string) {
    const e = em();
    const settlement = await e.findOneOrFail(Settlement, { id });
    const invoice = settlement.advertiserInvoiceId
      ? await e.findOneOrFail(AdvertiserInvoice, { id: settlement.advertiserInvoiceId })
      : null;
    const payout = settlement.partnerPayoutId
      ? await e.findOneOrFail(PartnerPayout, { id: settlement.partnerPayoutId })
      : null;
    const outbox = await e.execute<{ event: string; dedupe_key: string }[]>(
      'select event, dedupe_key from outbox where settlement_id = ? order by id',
      [id],
    );
    return {
      settlement,
      campaign: await e.findOneOrFail(Campaign, { id: settlement.campaignId }),
      invoice,
      payout,
      reverse: await e.findOne(ReverseIssuance, { settlementId: id }),
      audit: (
        await e.find(SettlementAuditEntry, { settlementId: id }, { orderBy: { id: 'asc' } })
      ).map((a) => `${a.action}:${a.toStatus}`),
      events: outbox.map((o) => o.event),
      dedupeKeys: outbox.map((o) => o.dedupe_key),
    };
  }

  const rejects = (promise: Promise<unknown>, code: string) =>
    expect(promise).rejects.toMatchObject({ code });

  /** Waits until `count` sessions wait, directly or through one another, on session `pid`. */
  async function untilBlockedBy(pid: number, count: number): Promise<void> {
    const blocked = async () => {
      const [row] = await em().execute<[{ n: number }]>(
        `with recursive blocked(pid) as (
           select pid from pg_stat_activity where ? = any(pg_blocking_pids(pid))
           union
           select a.pid from pg_stat_activity a join blocked b on b.pid = any(pg_blocking_pids(a.pid))
         ) select count(*)::int as n from blocked`,
        [pid],
      );
      return row.n;
    };
    await eventually(blocked, (n) => n >= count, `${count} sessions waiting on ${pid}`, 5_000, 10);
  }

  return {
    em,
    /** The ORM's root EntityManager: the server's `reads` (api/context.ts). */
    root: () => orm().em,
    services,
    ...services.workflow,
    admin,
    partners,
    newSettlement,
    rows,
    rejects,
    untilBlockedBy,
  };
}

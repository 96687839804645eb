import { beforeAll, describe, expect, it } from 'vitest';
import { graphqlOk } from '../support/clients.js';
import * as f from './support.js';

/** GET /api/admin/settlements and /api/partner/settlements(/summary): filters, paging, sums. */
describe('settlement lists and the partner summary', () => {
  let admin: string;
  let partner: string;
  let partnerId: number;
  let other: number;
  let advertiserId: number;
  const created: { id: string; campaignId: string }[] = [];

  beforeAll(async () => {
    admin = await f.adminToken();
    [partnerId, other, advertiserId] = await Promise.all([
      f.createPartner(admin, 'INDIVIDUAL'),
      f.createPartner(admin, 'CORPORATE_BUSINESS'),
      f.createAdvertiser(admin),
    ]);
    partner = await f.partnerToken(partnerId);
    for (const price of ['1000000.00', '2000000.00', '333333.00', '500000.00']) {
      const campaignId = await f.createCampaign(admin, { partnerId, advertiserId, price });
      created.push({ id: await f.markUploaded(admin, campaignId), campaignId });
    }
    await f.newSettlement(admin, { partnerId: other, advertiserId });
    await f.walkTo(admin, partner, created[1]!.id, 'ADVERTISER_PAID');
    await f.walkTo(admin, partner, created[2]!.id, 'SETTLEMENT_COMPLETED');
    await f.walkTo(admin, partner, created[3]!.id, 'SETTLEMENT_CANCELLED');
  });

  const ids = (page: f.Page) => page.items.map((s) => s.id);
  const newestFirst = () => created.map((c) => c.id).reverse();

  it('pages newest first with an opaque cursor, total counting every match', async () => {
    const first = await f.page(`/api/admin/settlements?partnerId=${partnerId}&limit=3`, admin);
    expect(first.total).toBe(4);
    expect(ids(first)).toEqual(newestFirst().slice(0, 3));
    expect(first.nextCursor).toEqual(expect.any(String));
    const second = await f.page(
      `/api/admin/settlements?partnerId=${partnerId}&limit=3&cursor=${first.nextCursor}`,
      admin,
    );
    expect(ids(second)).toEqual(newestFirst().slice(3));
    expect(second).toMatchObject({ total: 4, nextCursor: null });
    const all = await f.page(`/api/admin/settlements?partnerId=${partnerId}`, admin);
    expect(all.items).toHaveLength(4);
    expect(all.items[0]).toHaveProperty('advertiserInvoice');
    expect(all.items[0]).toHaveProperty('partnerPayout');
  });

  it('filters by status, campaign, agency and createdAt dates', async () => {
    const byStatus = await f.page(
      `/api/admin/settlements?partnerId=${partnerId}&status=SETTLEMENT_COMPLETED`,
      admin,
    );
    expect(ids(byStatus)).toEqual([created[2]!.id]);
    const byCampaign = await f.page(
      `/api/admin/settlements?campaignId=${created[0]!.campaignId}`,
      admin,
    );
    expect(ids(byCampaign)).toEqual([created[0]!.id]);
    const defaultAgency = await f.page(
      `/api/admin/settlements?partnerId=${partnerId}&agencyId=1`,
      admin,
    );
    expect(defaultAgency.total).toBe(4);
    const agency2 = await f.page(`/api/admin/settlements?partnerId=${partnerId}&agencyId=2`, admin);
    expect(agency2.total).toBe(0);

    const seoulToday = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Seoul' }).format(
      new Date(),
    );
    const today = await f.page(
      `/api/admin/settlements?partnerId=${partnerId}&from=${seoulToday}&to=${seoulToday}`,
      admin,
    );
    expect(today.total).toBe(4);
    const future = await f.page(
      `/api/admin/settlements?partnerId=${partnerId}&from=2999-01-01`,
      admin,
    );
    expect(future.total).toBe(0);
    const past = await f.page(
      `/api/admin/settlements?partnerId=${partnerId}&to=${encodeURIComponent('2000-01-01T00:00:00+09:00')}`,
      admin,
    );
    expect(past.total).toBe(0);
  });

  it('the partner list takes the same filters on its own settlements', async () => {
    const own = await f.page('/api/partner/settlements?limit=100', partner);
    expect(ids(own)).toEqual(newestFirst());
    expect(own.items[0]).not.toHaveProperty('advertiserInvoice');
    const paid = await f.page('/api/partner/settlements?status=ADVERTISER_PAID', partner);
    expect(ids(paid)).toEqual([created[1]!.id]);
  });

  it('the summary counts and sums every status', async () => {
    const summary = await f.expectOk<unknown>(
      f.call('GET', '/api/partner/settlements/summary', partner),
    );
    // INDIVIDUAL, PLATFORM_SETTLEMENT: 30% commission, 3.3% withholding.
    expect(summary).toEqual({
      byStatus: [
        {
          status: 'SETTLEMENT_PENDING',
          count: 1,
          campaignPrice: '1000000.00',
          settlementAmount: '700000.00',
          withholdingTaxAmount: '23100.00',
          payoutAmount: '676900.00',
        },
        {
          status: 'AWAITING_ADVERTISER_PAYMENT',
          count: 0,
          campaignPrice: '0.00',
          settlementAmount: '0.00',
          withholdingTaxAmount: '0.00',
          payoutAmount: '0.00',
        },
        {
          status: 'ADVERTISER_PAID',
          count: 1,
          campaignPrice: '2000000.00',
          settlementAmount: '1400000.00',
          withholdingTaxAmount: '46200.00',
          payoutAmount: '1353800.00',
        },
        {
          status: 'PARTNER_PAYOUT_PROCESSING',
          count: 0,
          campaignPrice: '0.00',
          settlementAmount: '0.00',
          withholdingTaxAmount: '0.00',
          payoutAmount: '0.00',
        },
        {
          status: 'SETTLEMENT_COMPLETED',
          count: 1,
          campaignPrice: '333333.00',
          settlementAmount: '233333.00',
          withholdingTaxAmount: '7700.00',
          payoutAmount: '225633.00',
        },
        {
          status: 'SETTLEMENT_CANCELLED',
          count: 1,
          campaignPrice: '500000.00',
          settlementAmount: '350000.00',
          withholdingTaxAmount: '11550.00',
          payoutAmount: '338450.00',
        },
      ],
      totalCount: 4,
      campaignPrice: '3833333.00',
      settlementAmount: '2683333.00',
      withholdingTaxAmount: '88550.00',
      payoutAmount: '2594783.00',
    });
  });

  it('GraphQL lists resolve partners, campaigns, invoices and payouts in one request', async () => {
    const { settlements } = await graphqlOk<{
      settlements: {
        total: number;
        items: {
          id: string;
          partner: { id: number };
          campaign: { id: string };
          partnerPayout: { payoutNumber: string; settlements: { id: string }[] } | null;
          advertiserInvoice: { invoiceNumber: string } | null;
        }[];
      };
    }>(
      `query($filter: SettlementFilter) { settlements(filter: $filter, limit: 100) { total items {
        id partner { id name } campaign { id title }
        advertiserInvoice { invoiceNumber settlements { id } }
        partnerPayout { payoutNumber settlements { id } } } } }`,
      { filter: { partnerId: String(partnerId) } },
      admin,
    );
    expect(settlements.total).toBe(4);
    for (const item of settlements.items) {
      expect(item.partner.id).toBe(partnerId);
      expect(item.campaign.id).toMatch(/^CAM\d+$/);
    }
    const completed = settlements.items.find((s) => s.id === created[2]!.id)!;
    expect(completed.partnerPayout?.settlements).toEqual([{ id: created[2]!.id }]);
  });
});

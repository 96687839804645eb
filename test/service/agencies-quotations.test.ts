import { beforeAll, describe, expect, it } from 'vitest';
import {
  Agency,
  Campaign,
  ChangeAuditEntry,
  Quotation,
  QuotationLine,
  Settlement,
} from '@campaign/settlement';
import { agencyInput } from '../settlement/agency-input.js';
import { useSettlementServices } from '../support/service-database.js';

/**
 * Agencies, campaign changes and quotations against real PostgreSQL, as the resolvers call them
 * (issue 12): the unique index on lower(code), the change audit, the S5 window for campaign
 * changes and the exactly-once execute.
 */
const { services, em, admin } = useSettlementServices();
let partnerId: number;
let advertiserId: number;

const code = (error: unknown) => (error as { code?: string }).code;

beforeAll(async () => {
  await em().insert(Agency, { ...agencyInput('platform'), isDefault: true, isActive: true });
  const partner = await services.partners.createPartner(em(), {
    name: 'Partner',
    entityType: 'CORPORATE_BUSINESS',
    email: 'p@example.com',
    // A business partner requests settlement only with one (issue 23).
    businessNumber: '101-86-23450',
    bankName: 'Kakao Bank',
    accountNumber: '3333-01-1234567',
    accountHolder: 'Holder',
  });
  partnerId = Number(partner.id);
  const advertiser = await services.partners.createAdvertiser(em(), {
    name: 'Advertiser',
    email: 'a@example.com',
  });
  advertiserId = Number(advertiser.id);
});

describe('agencies', () => {
  it('keeps the business number as 10 digits and audits every change', async () => {
    const created = await services.agencyChanges.create(em(), admin, agencyInput('Alpha_1'));
    expect(created.businessNumber).toBe('2208162517');
    await services.agencyChanges.update(em(), admin, created.id, { name: 'Alpha One' });
    await services.agencyChanges.update(em(), admin, created.id, { name: 'Alpha One' });
    await services.agencyChanges.deactivate(em(), admin, created.id);
    await services.agencyChanges.deactivate(em(), admin, created.id);
    const trail = await em().find(
      ChangeAuditEntry,
      { entityType: 'AGENCY', entityId: created.id },
      { orderBy: { id: 'asc' } },
    );
    expect(trail.map((e) => [e.action, e.before, e.after])).toEqual([
      ['CREATED', null, expect.objectContaining({ code: 'Alpha_1', isActive: true })],
      ['UPDATED', { name: 'Agency Alpha_1' }, { name: 'Alpha One' }],
      ['DEACTIVATED', { isActive: true }, { isActive: false }],
    ]);
  });

  it('codes are unique ignoring case, also when creates race', async () => {
    await services.agencyChanges.create(em(), admin, agencyInput('beta'));
    await expect(services.agencyChanges.create(em(), admin, agencyInput('BETA'))).rejects.toThrow(
      /already has the code/,
    );
    const results = await Promise.allSettled(
      Array.from({ length: 6 }, () =>
        services.agencyChanges.create(em(), admin, agencyInput('Gamma')),
      ),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    for (const r of results.filter((r) => r.status === 'rejected'))
      expect(code((r as PromiseRejectedResult).reason)).toBe('CONFLICT');
    expect(await em().count(Agency, { code: 'Gamma' })).toBe(1);
  });

  it('an inactive agency takes no new campaigns; the default agency stays active', async () => {
    const agency = await services.agencyChanges.create(em(), admin, agencyInput('delta'));
    await services.agencyChanges.deactivate(em(), admin, agency.id);
    await expect(
      services.campaigns.create(
        em(),
        { partnerId, advertiserId, agencyId: Number(agency.id), title: 'x', price: '1.00' },
        admin,
      ),
    ).rejects.toMatchObject({ code: 'CONFLICT' });
    const fallback = await services.agencies.defaultAgencyId(em());
    await expect(services.agencyChanges.deactivate(em(), admin, fallback)).rejects.toMatchObject({
      code: 'CONFLICT',
    });
  });
});

describe('updateCampaign', () => {
  it('moves the settlement with its campaign while no money has moved, in one transaction', async () => {
    const agency = await services.agencyChanges.create(em(), admin, agencyInput('epsilon'));
    const campaign = await services.campaigns.create(
      em(),
      { partnerId, advertiserId, title: 'Campaign', price: '1000000.00' },
      admin,
    );
    await services.campaignUpload.markUploaded(em(), campaign.id, admin);
    const updated = await services.campaignChange.update(em(), admin, campaign.id, {
      price: '2000000.00',
      agencyId: Number(agency.id),
    });
    expect(updated.agencyId).toBe(agency.id);
    const settlement = await em().findOneOrFail(Settlement, { campaignId: campaign.id });
    expect(settlement.agencyId).toBe(agency.id);
    expect(settlement.campaignPrice.toFixed(2)).toBe('2000000.00');
    expect(settlement.commissionAmount.toFixed(2)).toBe('400000.00');

    await services.workflow.partnerRequest.request(
      em(),
      { subject: 'p', role: 'PARTNER', agencyId: null, partnerId: String(partnerId) },
      settlement.id,
    );
    await services.workflow.platformFlow.retryIssuance(em(), admin, settlement.id);
    await services.workflow.platformFlow.confirmAdvertiserPayment(em(), admin, settlement.id);
    await expect(
      services.campaignChange.update(em(), admin, campaign.id, { price: '1.00' }),
    ).rejects.toThrow(/money has moved on settlement .* \(it is ADVERTISER_PAID\)/);
    const after = await em().findOneOrFail(Campaign, { id: campaign.id });
    expect(after.price.toFixed(2)).toBe('2000000.00');
  });
});

describe('quotations', () => {
  const body = (lines = 2) => ({
    advertiserId,
    title: 'Spring launch',
    validUntil: '2099-12-31',
    lines: Array.from({ length: lines }, (_, i) => ({
      partnerId,
      deliverable: `Reel ${i + 1}`,
      price: '1000000.00',
      commissionRate: i === 0 ? '15.00' : null,
    })),
  });

  it('is saved with its lines and amounts, and updated only as a DRAFT', async () => {
    const q = await services.quotationChanges.create(em(), admin, body());
    expect(q.id).toMatch(/^QUO\d+$/);
    expect(q.validUntil).toBe('2099-12-31');
    expect([q.supplyAmount, q.vatAmount, q.totalAmount].map((d) => d.toFixed(2))).toEqual([
      '2000000.00',
      '200000.00',
      '2200000.00',
    ]);
    await services.quotationChanges.update(em(), admin, q.id, body(3));
    expect(await em().count(QuotationLine, { quotationId: q.id })).toBe(3);
    await services.quotationChanges.changeStatus(em(), admin, q.id, 'SENT');
    await expect(services.quotationChanges.update(em(), admin, q.id, body())).rejects.toMatchObject(
      { code: 'CONFLICT' },
    );
  });

  it('executes once: concurrent executes create the campaigns exactly once', async () => {
    const q = await services.quotationChanges.create(em(), admin, body(3));
    await services.quotationChanges.changeStatus(em(), admin, q.id, 'SENT');
    await services.quotationChanges.changeStatus(em(), admin, q.id, 'ACCEPTED');
    const results = await Promise.allSettled(
      Array.from({ length: 5 }, () => services.quotationExecution.execute(em(), admin, q.id)),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    for (const r of results.filter((r) => r.status === 'rejected'))
      expect(['CONCURRENT_MODIFICATION', 'INVALID_STATUS_TRANSITION']).toContain(
        code((r as PromiseRejectedResult).reason),
      );
    const campaigns = await em().find(Campaign, { quotationId: q.id }, { orderBy: { id: 'asc' } });
    expect(campaigns).toHaveLength(3);
    expect(campaigns.map((c) => c.commissionRate?.toFixed(2) ?? null)).toEqual([
      '15.00',
      null,
      null,
    ]);
    const lines = await em().find(
      QuotationLine,
      { quotationId: q.id },
      { orderBy: { lineNo: 'asc' } },
    );
    expect(lines.map((l) => l.campaignId)).toEqual(campaigns.map((c) => c.id));
    const saved = await em().findOneOrFail(Quotation, { id: q.id });
    expect(saved.status).toBe('EXECUTED');
    expect(saved.executedAt).toBeInstanceOf(Date);
  });

  it('generates a workbook of 1,000 lines and saves nothing', async () => {
    const before = await em().count(Quotation, {});
    const file = await services.quotationFiles.generate(em(), admin, body(1000));
    expect(file.fileName).toBe('quotation-Spring-launch.xlsx');
    expect(Buffer.from(file.base64, 'base64').subarray(0, 2).toString()).toBe('PK');
    expect(await em().count(Quotation, {})).toBe(before);
  });
});

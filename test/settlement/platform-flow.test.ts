import type { Sql } from '@campaign/stack';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphqlOk } from '../support/clients.js';
import * as f from './support.js';

/** PLATFORM_SETTLEMENT from UPLOADED to COMPLETED through REST (spec section 3). */
describe('PLATFORM_SETTLEMENT flow', () => {
  let admin: string;
  let db: Sql;
  let advertiserId: number;
  const partners: Record<f.EntityType, { id: number; token: string }> = {} as never;

  beforeAll(async () => {
    admin = await f.adminToken();
    db = await f.database();
    advertiserId = await f.createAdvertiser(admin);
    const ids = await Promise.all(
      (['INDIVIDUAL', 'CORPORATE_BUSINESS', 'INDIVIDUAL_BUSINESS'] as const).map(
        async (type) => [type, await f.createPartner(admin, type)] as const,
      ),
    );
    await Promise.all(
      ids.map(async ([type, id]) => {
        partners[type] = { id, token: await f.partnerToken(id) };
      }),
    );
  });
  afterAll(() => db?.end());

  it('INDIVIDUAL partner: request, issuance, deposit, payout, completion, with every side effect', async () => {
    const partner = partners.INDIVIDUAL;
    const campaignId = await f.createCampaign(admin, {
      partnerId: partner.id,
      advertiserId,
      price: '1000005.00',
    });
    const id = await f.markUploaded(admin, campaignId);

    const created = await f.expectOk(f.call('GET', f.adminPath(id), admin));
    expect(created).toMatchObject({
      id,
      campaignId,
      status: 'SETTLEMENT_PENDING',
      settlementType: 'PLATFORM_SETTLEMENT',
      campaignPrice: '1000005.00',
      commissionRate: '30.00',
      commissionAmount: '300002.00',
      settlementAmount: '700003.00',
      withholdingTaxRate: '3.30',
      withholdingTaxAmount: '23100.00',
      payoutAmount: '676903.00',
      advertiserInvoiceId: null,
      partnerPayoutId: null,
      advertiserInvoice: null,
      partnerPayout: null,
      reverseIssuance: null,
    });
    expect(await f.outboxOf(db, id)).toEqual([]);

    // Partner request: team chat only; an INDIVIDUAL partner gets no reverse issuance.
    const requested = await f.expectOk(
      f.call('POST', f.partnerPath(id, '/request'), partner.token),
    );
    expect(requested).toMatchObject({
      status: 'AWAITING_ADVERTISER_PAYMENT',
      reverseIssuance: null,
    });
    expect(requested['requestedAt']).toMatch(/^\d{4}-/);
    expect(requested).not.toHaveProperty('advertiserInvoice');
    expect((await f.outboxOf(db, id)).map((r) => [r.event, r.channel])).toEqual([
      ['SETTLEMENT_REQUESTED', 'TEAM_CHAT'],
      ['SETTLEMENT_STATUS_CHANGED', 'TEAM_CHAT'],
    ]);
    const reverseRows = await db.query('select 1 from reverse_issuance where settlement_id = $1', [
      id,
    ]);
    expect(reverseRows).toHaveLength(0);

    // Issuance request: one invoice (VAT 10% half up), provider request and payment request.
    const issued = await f.expectOk(f.call('POST', f.adminPath(id, '/retry-issuance'), admin));
    expect(issued.status).toBe('AWAITING_ADVERTISER_PAYMENT');
    const invoice = issued.advertiserInvoice!;
    expect(invoice).toMatchObject({
      invoiceNumber: expect.stringMatching(/^INV-\d{4}-\d{2}-\d{4,}$/),
      advertiserId,
      invoiceType: 'PER_CAMPAIGN',
      subtotal: '1000005.00',
      taxAmount: '100001.00',
      totalAmount: '1100006.00',
      status: 'DRAFT',
      agencyId: null,
      bankName: 'Shinhan Bank',
      accountNumber: '110-123-456789',
    });
    expect(issued.advertiserInvoiceId).toBe(invoice['id']);
    let outbox = await f.outboxOf(db, id);
    expect(outbox.slice(2).map((r) => [r.event, r.channel])).toEqual([
      ['TAX_INVOICE_ISSUE_REQUEST', 'TAX_INVOICE_PROVIDER'],
      ['PAYMENT_REQUEST_ADVERTISER', 'EMAIL'],
    ]);
    expect(outbox[3]!.payload).toMatchObject({
      invoiceNumber: invoice['invoiceNumber'],
      totalAmount: '1100006.00',
      accountNumber: '110-123-456789',
    });

    // Deposit confirmed (S3): advertiser and partner e-mails; the invoice is PAID.
    const paid = await f.expectOk(
      f.call('PATCH', f.adminPath(id, '/status'), admin, {
        status: 'ADVERTISER_PAID',
        reason: 'deposit seen on the statement',
      }),
    );
    expect(paid.status).toBe('ADVERTISER_PAID');
    expect(paid.advertiserInvoice).toMatchObject({ status: 'PAID', paidAt: expect.any(String) });
    outbox = await f.outboxOf(db, id);
    expect(outbox.slice(4).map((r) => r.event)).toEqual([
      'PAYMENT_CONFIRMED_ADVERTISER',
      'ADVERTISER_PAID_PARTNER',
      'SETTLEMENT_STATUS_CHANGED',
    ]);
    expect(outbox[4]!.recipient).toMatch(/^advertiser\d+@example\.com$/);
    expect(outbox[5]!.recipient).toMatch(/^partner\d+@example\.com$/);

    // start-payout straight from ADVERTISER_PAID: payout PROCESSING, no tax invoice asked.
    const payingOut = await f.expectOk(f.call('POST', f.adminPath(id, '/start-payout'), admin));
    expect(payingOut.status).toBe('PARTNER_PAYOUT_PROCESSING');
    expect(payingOut.processedAt).toMatch(/^\d{4}-/);
    expect(payingOut.partnerPayout).toMatchObject({
      payoutNumber: expect.stringMatching(/^PAY-\d{4}-\d{2}-\d{4,}$/),
      partnerId: partner.id,
      subtotal: '700003.00',
      taxAmount: '23100.00',
      totalAmount: '676903.00',
      status: 'PROCESSING',
      bankName: 'Kakao Bank',
    });
    outbox = await f.outboxOf(db, id);
    expect(outbox.slice(7).map((r) => r.event)).toEqual(['SETTLEMENT_STATUS_CHANGED']);

    // complete: campaign COMPLETED, payout COMPLETED, partner e-mail.
    const done = await f.expectOk(
      f.call('POST', f.adminPath(id, '/complete'), admin, { transactionId: 'TX-778899' }),
    );
    expect(done).toMatchObject({ status: 'SETTLEMENT_COMPLETED', completedAt: expect.any(String) });
    expect(done.partnerPayout).toMatchObject({ status: 'COMPLETED', transactionId: 'TX-778899' });
    outbox = await f.outboxOf(db, id);
    expect(outbox.slice(8).map((r) => r.event)).toEqual([
      'PAYOUT_COMPLETED_PARTNER',
      'SETTLEMENT_STATUS_CHANGED',
    ]);
    expect(new Set(outbox.map((r) => r.dedupe_key)).size).toBe(outbox.length);

    const { campaign } = await graphqlOk<{ campaign: { status: string } }>(
      `query($id: ID!) { campaign(id: $id) { status } }`,
      { id: campaignId },
      admin,
    );
    expect(campaign.status).toBe('COMPLETED');

    // The audit trail (S8), through GraphQL.
    const { settlement } = await graphqlOk<{
      settlement: {
        auditTrail: {
          action: string;
          fromStatus: string | null;
          toStatus: string;
          actorRole: string;
          reason: string | null;
          createdAt: string;
        }[];
      };
    }>(
      `query($id: ID!) { settlement(id: $id) { auditTrail {
        action fromStatus toStatus actorRole actorSubject reason details createdAt } } }`,
      { id },
      admin,
    );
    expect(
      settlement.auditTrail.map((e) => [e.action, e.fromStatus, e.toStatus, e.actorRole]),
    ).toEqual([
      ['CREATED', null, 'SETTLEMENT_PENDING', 'SUPER_ADMIN'],
      ['STATUS_CHANGED', 'SETTLEMENT_PENDING', 'AWAITING_ADVERTISER_PAYMENT', 'PARTNER'],
      [
        'ISSUANCE_REQUESTED',
        'AWAITING_ADVERTISER_PAYMENT',
        'AWAITING_ADVERTISER_PAYMENT',
        'SUPER_ADMIN',
      ],
      ['STATUS_CHANGED', 'AWAITING_ADVERTISER_PAYMENT', 'ADVERTISER_PAID', 'SUPER_ADMIN'],
      ['STATUS_CHANGED', 'ADVERTISER_PAID', 'PARTNER_PAYOUT_PROCESSING', 'SUPER_ADMIN'],
      ['STATUS_CHANGED', 'PARTNER_PAYOUT_PROCESSING', 'SETTLEMENT_COMPLETED', 'SUPER_ADMIN'],
    ]);
    expect(settlement.auditTrail[3]!.reason).toBe('deposit seen on the statement');
  });

  it.each(['CORPORATE_BUSINESS', 'INDIVIDUAL_BUSINESS'] as const)(
    '%s partner: reverse issuance on request, and no completion before its tax invoice (S4)',
    async (type) => {
      const partner = partners[type];
      const id = await f.newSettlement(admin, { partnerId: partner.id, advertiserId, agencyId: 2 });

      const requested = await f.expectOk(
        f.call('POST', f.partnerPath(id, '/request'), partner.token),
      );
      expect(requested.status).toBe('AWAITING_ADVERTISER_PAYMENT');
      expect(requested.reverseIssuance).toMatchObject({
        settlementId: id,
        issuanceKey: `${id}-R1`,
        status: 'PENDING',
        grantUrl: null,
      });
      const outbox = await f.outboxOf(db, id);
      expect(outbox.map((r) => [r.event, r.channel])).toEqual([
        ['SETTLEMENT_REQUESTED', 'TEAM_CHAT'],
        ['SETTLEMENT_STATUS_CHANGED', 'TEAM_CHAT'],
        ['TAX_INVOICE_REVERSE_ISSUE_REQUEST', 'TAX_INVOICE_PROVIDER'],
      ]);
      // Commission 20% of 1,000,000: the partner invoices 800,000 + VAT to agency 2.
      expect(outbox[2]!.payload).toMatchObject({
        issuanceKey: `${id}-R1`,
        supplyAmount: '800000.00',
        taxAmount: '80000.00',
        totalAmount: '880000.00',
        buyer: { code: 'seoul-creators' },
      });

      const status = await f.expectOk(
        f.call('GET', f.adminPath(id, '/reverse-issuance-status'), admin),
      );
      expect(status).toMatchObject({ settlementId: id, status: 'PENDING', grantUrl: null });
      // The provider is down for this partner (support.ts): no approval URL can be issued.
      await f.expectError(
        f.call('GET', f.partnerPath(id, '/reverse-issuance-grant-url'), partner.token),
        503,
        'PROVIDER_UNAVAILABLE',
      );

      const issued = await f.expectOk(f.call('POST', f.adminPath(id, '/retry-issuance'), admin));
      expect(issued.advertiserInvoice).toMatchObject({
        agencyId: 2,
        bankName: 'KB Kookmin Bank',
        accountNumber: '123456-01-234567',
        subtotal: '1000000.00',
        taxAmount: '100000.00',
        totalAmount: '1100000.00',
      });
      await f.expectOk(
        f.call('PATCH', f.adminPath(id, '/status'), admin, { status: 'ADVERTISER_PAID' }),
      );
      const payingOut = await f.expectOk(f.call('POST', f.adminPath(id, '/start-payout'), admin));
      expect(payingOut.partnerPayout).toMatchObject({
        status: 'PENDING',
        subtotal: '800000.00',
        taxAmount: '0.00',
        totalAmount: '800000.00',
      });
      const events = (await f.outboxOf(db, id)).map((r) => r.event);
      expect(events.at(-2)).toBe('SETTLEMENT_STATUS_CHANGED');
      expect(events.at(-1)).toBe('INVOICE_REQUEST_PARTNER');

      await f.expectError(
        f.call('POST', f.adminPath(id, '/complete'), admin),
        409,
        'TAX_INVOICE_NOT_RECEIVED',
      );
      await f.expectError(
        f.call('PATCH', f.adminPath(id, '/status'), admin, { status: 'SETTLEMENT_COMPLETED' }),
        409,
        'TAX_INVOICE_NOT_RECEIVED',
      );

      const confirmed = await f.confirmPartnerInvoiceReceived(admin, id, 'TI-2026-0001');
      expect(confirmed.errors).toBeUndefined();
      expect(confirmed.data!.confirmPartnerInvoiceReceived).toMatchObject({
        status: 'PARTNER_PAYOUT_PROCESSING',
        partnerInvoiceReceivedAt: expect.any(String),
        partnerPayout: {
          status: 'INVOICE_RECEIVED',
          partnerInvoiceNumber: 'TI-2026-0001',
          partnerInvoiceReceivedAt: expect.any(String),
        },
      });
      const again = await f.confirmPartnerInvoiceReceived(admin, id);
      expect(again.errors?.[0]?.extensions?.['code']).toBe('CONFLICT');

      const done = await f.expectOk(f.call('POST', f.adminPath(id, '/complete'), admin));
      expect(done.status).toBe('SETTLEMENT_COMPLETED');
      expect(done.partnerPayout).toMatchObject({ status: 'COMPLETED' });
    },
  );

  it('a tax invoice confirmed before start-payout lets the payout start as INVOICE_RECEIVED', async () => {
    const partner = partners.CORPORATE_BUSINESS;
    const id = await f.newSettlement(admin, { partnerId: partner.id, advertiserId });
    await f.expectOk(f.call('POST', f.partnerPath(id, '/request'), partner.token));
    expect((await f.confirmPartnerInvoiceReceived(admin, id)).errors).toBeUndefined();
    await f.expectOk(
      f.call('PATCH', f.adminPath(id, '/status'), admin, { status: 'ADVERTISER_PAID' }),
    );
    const payingOut = await f.expectOk(f.call('POST', f.adminPath(id, '/start-payout'), admin));
    expect(payingOut.partnerPayout).toMatchObject({ status: 'INVOICE_RECEIVED' });
    const events = (await f.outboxOf(db, id)).map((r) => r.event);
    expect(events).not.toContain('INVOICE_REQUEST_PARTNER');
    await f.expectOk(f.call('POST', f.adminPath(id, '/complete'), admin));
  });

  it('an INDIVIDUAL partner has no tax invoice to confirm', async () => {
    const id = await f.newSettlement(admin, { partnerId: partners.INDIVIDUAL.id, advertiserId });
    const result = await f.confirmPartnerInvoiceReceived(admin, id);
    expect(result.errors?.[0]?.extensions).toMatchObject({ code: 'CONFLICT', httpStatus: 409 });
  });

  it('retry-issuance again keeps the one invoice and asks the provider again', async () => {
    const id = await f.newSettlement(admin, { partnerId: partners.INDIVIDUAL.id, advertiserId });
    const first = await f.expectOk(f.call('POST', f.adminPath(id, '/retry-issuance'), admin));
    const second = await f.expectOk(f.call('POST', f.adminPath(id, '/retry-issuance'), admin));
    expect(second.status).toBe('SETTLEMENT_PENDING');
    expect(second.advertiserInvoice!['invoiceNumber']).toBe(
      first.advertiserInvoice!['invoiceNumber'],
    );
    const rows = await db.query('select count(*)::int as n from advertiser_invoice where id = $1', [
      first.advertiserInvoiceId,
    ]);
    expect(rows[0]!['n']).toBe(1);
    expect((await f.outboxOf(db, id)).map((r) => r.event)).toEqual([
      'TAX_INVOICE_ISSUE_REQUEST',
      'PAYMENT_REQUEST_ADVERTISER',
      'TAX_INVOICE_ISSUE_REQUEST',
    ]);
  });
});

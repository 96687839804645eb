import { describe, expect, it } from 'vitest';
import { graphqlOk } from '../support/clients.js';
import * as f from './support.js';

/** PLATFORM_SETTLEMENT from UPLOADED to COMPLETED through REST (spec section 3). */
describe('PLATFORM_SETTLEMENT flow', () => {
  const ctx = f.usePartnerOfEveryType();

  it('INDIVIDUAL partner: request, issuance, deposit, payout, completion, with every side effect', async () => {
    const partner = ctx.partners.INDIVIDUAL;
    const campaignId = await f.createCampaign(ctx.admin, {
      partnerId: partner.id,
      advertiserId: ctx.advertiserId,
      price: '1000005.00',
    });
    const id = await f.markUploaded(ctx.admin, campaignId);

    const created = await f.expectOk(f.call('GET', f.adminPath(id), ctx.admin));
    expect(created).toMatchObject({
      id,
      campaignId,
      status: 'SETTLEMENT_PENDING',
      settlementType: 'PLATFORM_SETTLEMENT',
      ...f.INDIVIDUAL_AMOUNTS,
      advertiserInvoiceId: null,
      partnerPayoutId: null,
      advertiserInvoice: null,
      partnerPayout: null,
      reverseIssuance: null,
    });
    expect(await f.outboxOf(ctx.db, id)).toEqual([]);

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
    expect((await f.outboxOf(ctx.db, id)).map((r) => [r.event, r.channel])).toEqual([
      ['SETTLEMENT_REQUESTED', 'TEAM_CHAT'],
      ['SETTLEMENT_STATUS_CHANGED', 'TEAM_CHAT'],
    ]);
    const reverseRows = await ctx.db.query(
      'select 1 from reverse_issuance where settlement_id = $1',
      [id],
    );
    expect(reverseRows).toHaveLength(0);

    // Issuance request: one invoice (VAT 10% half up), provider request and payment request.
    const issued = await f.expectOk(f.call('POST', f.adminPath(id, '/retry-issuance'), ctx.admin));
    expect(issued.status).toBe('AWAITING_ADVERTISER_PAYMENT');
    const invoice = issued.advertiserInvoice!;
    expect(invoice).toMatchObject({
      invoiceNumber: expect.stringMatching(/^INV-\d{4}-\d{2}-\d{4,}$/),
      advertiserId: ctx.advertiserId,
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
    let outbox = await f.outboxOf(ctx.db, id);
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
      f.call('PATCH', f.adminPath(id, '/status'), ctx.admin, {
        status: 'ADVERTISER_PAID',
        reason: 'deposit seen on the statement',
      }),
    );
    expect(paid.status).toBe('ADVERTISER_PAID');
    expect(paid.advertiserInvoice).toMatchObject({ status: 'PAID', paidAt: expect.any(String) });
    outbox = await f.outboxOf(ctx.db, id);
    expect(outbox.slice(4).map((r) => r.event)).toEqual([
      'PAYMENT_CONFIRMED_ADVERTISER',
      'ADVERTISER_PAID_PARTNER',
      'SETTLEMENT_STATUS_CHANGED',
    ]);
    expect(outbox[4]!.recipient).toMatch(/^advertiser\d+@example\.com$/);
    expect(outbox[5]!.recipient).toMatch(/^partner\d+@example\.com$/);

    // start-payout straight from ADVERTISER_PAID: payout PROCESSING, no tax invoice asked.
    const payingOut = await f.expectOk(f.call('POST', f.adminPath(id, '/start-payout'), ctx.admin));
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
    outbox = await f.outboxOf(ctx.db, id);
    expect(outbox.slice(7).map((r) => r.event)).toEqual(['SETTLEMENT_STATUS_CHANGED']);

    // complete: campaign COMPLETED, payout COMPLETED, partner e-mail.
    const done = await f.expectOk(
      f.call('POST', f.adminPath(id, '/complete'), ctx.admin, { transactionId: 'TX-778899' }),
    );
    expect(done).toMatchObject({ status: 'SETTLEMENT_COMPLETED', completedAt: expect.any(String) });
    expect(done.partnerPayout).toMatchObject({ status: 'COMPLETED', transactionId: 'TX-778899' });
    outbox = await f.outboxOf(ctx.db, id);
    expect(outbox.slice(8).map((r) => r.event)).toEqual([
      'PAYOUT_COMPLETED_PARTNER',
      'SETTLEMENT_STATUS_CHANGED',
    ]);
    expect(new Set(outbox.map((r) => r.dedupe_key)).size).toBe(outbox.length);

    const { campaign } = await graphqlOk<{ campaign: { status: string } }>(
      `query($id: ID!) { campaign(id: $id) { status } }`,
      { id: campaignId },
      ctx.admin,
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
      ctx.admin,
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

  it('a tax invoice confirmed before start-payout lets the payout start as INVOICE_RECEIVED', async () => {
    const partner = ctx.partners.CORPORATE_BUSINESS;
    const id = await f.newSettlement(ctx.admin, {
      partnerId: partner.id,
      advertiserId: ctx.advertiserId,
    });
    await f.expectOk(f.call('POST', f.partnerPath(id, '/request'), partner.token));
    expect((await f.confirmPartnerInvoiceReceived(ctx.admin, id)).errors).toBeUndefined();
    await f.expectOk(
      f.call('PATCH', f.adminPath(id, '/status'), ctx.admin, { status: 'ADVERTISER_PAID' }),
    );
    const payingOut = await f.expectOk(f.call('POST', f.adminPath(id, '/start-payout'), ctx.admin));
    expect(payingOut.partnerPayout).toMatchObject({ status: 'INVOICE_RECEIVED' });
    const events = (await f.outboxOf(ctx.db, id)).map((r) => r.event);
    expect(events).not.toContain('INVOICE_REQUEST_PARTNER');
    await f.expectOk(f.call('POST', f.adminPath(id, '/complete'), ctx.admin));
  });

  it('an INDIVIDUAL partner has no tax invoice to confirm', async () => {
    const id = await f.newSettlement(ctx.admin, {
      partnerId: ctx.partners.INDIVIDUAL.id,
      advertiserId: ctx.advertiserId,
    });
    const result = await f.confirmPartnerInvoiceReceived(ctx.admin, id);
    expect(result.errors?.[0]?.extensions).toMatchObject({ code: 'CONFLICT', httpStatus: 409 });
  });

  it('retry-issuance again keeps the one invoice and asks the provider again', async () => {
    const id = await f.newSettlement(ctx.admin, {
      partnerId: ctx.partners.INDIVIDUAL.id,
      advertiserId: ctx.advertiserId,
    });
    const first = await f.expectOk(f.call('POST', f.adminPath(id, '/retry-issuance'), ctx.admin));
    const second = await f.expectOk(f.call('POST', f.adminPath(id, '/retry-issuance'), ctx.admin));
    expect(second.status).toBe('SETTLEMENT_PENDING');
    expect(second.advertiserInvoice!['invoiceNumber']).toBe(
      first.advertiserInvoice!['invoiceNumber'],
    );
    const rows = await ctx.db.query(
      'select count(*)::int as n from advertiser_invoice where id = $1',
      [first.advertiserInvoiceId],
    );
    expect(rows[0]!['n']).toBe(1);
    expect((await f.outboxOf(ctx.db, id)).map((r) => r.event)).toEqual([
      'TAX_INVOICE_ISSUE_REQUEST',
      'PAYMENT_REQUEST_ADVERTISER',
      'TAX_INVOICE_ISSUE_REQUEST',
    ]);
  });
});

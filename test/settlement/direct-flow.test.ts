import { describe, expect, it } from 'vitest';
import { graphqlOk } from '../support/clients.js';
import * as f from './support.js';

/** DIRECT_INVOICE (spec section 3) and the type-only actions. */
describe('DIRECT_INVOICE flow', () => {
  const ctx = f.useTwoPartners(
    { bankName: 'Toss Bank', accountNumber: '1000-2000-3000' },
    { commissionRate: '15' },
  );

  const direct = (partnerId: number) =>
    f.newSettlement(ctx.admin, {
      partnerId,
      advertiserId: ctx.advertiserId,
      settlementType: 'DIRECT_INVOICE',
    });

  it('partner: request, invoice-issued, invoice-paid completes at once', async () => {
    const campaignId = await f.createCampaign(ctx.admin, {
      partnerId: ctx.individual.id,
      advertiserId: ctx.advertiserId,
      settlementType: 'DIRECT_INVOICE',
      price: '2500000.00',
    });
    const id = await f.markUploaded(ctx.admin, campaignId);
    const created = await f.expectOk(f.call('GET', f.partnerPath(id), ctx.individual.token));
    expect(created).toMatchObject({
      settlementType: 'DIRECT_INVOICE',
      status: 'SETTLEMENT_PENDING',
      commissionRate: '0.00',
      commissionAmount: '0.00',
      settlementAmount: '2500000.00',
      withholdingTaxRate: '0.00',
      withholdingTaxAmount: '0.00',
      payoutAmount: '2500000.00',
    });

    const requested = await f.expectOk(
      f.call('POST', f.partnerPath(id, '/request'), ctx.individual.token),
    );
    expect(requested).toMatchObject({
      status: 'AWAITING_ADVERTISER_PAYMENT',
      reverseIssuance: null,
    });
    const outbox = await f.outboxOf(ctx.db, id);
    expect(outbox.map((r) => r.event)).toEqual([
      'SETTLEMENT_REQUESTED',
      'SETTLEMENT_STATUS_CHANGED',
      'DIRECT_SETTLEMENT_REQUEST',
    ]);
    expect(outbox[2]).toMatchObject({
      channel: 'EMAIL',
      recipient: expect.stringMatching(/^advertiser\d+@example\.com$/),
      payload: {
        amount: '2500000.00',
        bankName: 'Toss Bank',
        accountNumber: '1000-2000-3000',
        accountHolder: 'Test Holder',
      },
    });

    const issued = await f.expectOk(
      f.call('POST', f.partnerPath(id, '/invoice-issued'), ctx.individual.token),
    );
    expect(issued.status).toBe('AWAITING_ADVERTISER_PAYMENT');
    expect(issued['invoiceIssuedAt']).toMatch(/^\d{4}-/);
    expect((await f.outboxOf(ctx.db, id)).at(-1)!.event).toBe('INVOICE_ISSUED_ADVERTISER');
    await f.expectError(
      f.call('POST', f.adminPath(id, '/invoice-issued'), ctx.admin),
      409,
      'CONFLICT',
    );

    const paid = await f.expectOk(
      f.call('POST', f.partnerPath(id, '/invoice-paid'), ctx.individual.token),
    );
    expect(paid).toMatchObject({
      status: 'SETTLEMENT_COMPLETED',
      invoicePaidAt: expect.any(String),
      completedAt: expect.any(String),
      partnerPayout: null,
    });
    const { campaign } = await graphqlOk<{ campaign: { status: string } }>(
      `query($id: ID!) { campaign(id: $id) { status } }`,
      { id: campaignId },
      ctx.admin,
    );
    expect(campaign.status).toBe('COMPLETED');
    expect((await f.outboxOf(ctx.db, id)).slice(-2).map((r) => r.event)).toEqual([
      'PAYMENT_CONFIRMED_ADVERTISER',
      'SETTLEMENT_STATUS_CHANGED',
    ]);
    const audit = await f.auditOf(ctx.db, id);
    expect(audit.map((a) => a.action)).toEqual([
      'CREATED',
      'STATUS_CHANGED',
      'INVOICE_ISSUED',
      'STATUS_CHANGED',
    ]);
  });

  it('admin: invoice-issued and invoice-paid on the admin paths; a business partner skips reverse issuance', async () => {
    const id = await direct(ctx.corporate.id);
    const requested = await f.expectOk(
      f.call('POST', f.partnerPath(id, '/request'), ctx.corporate.token),
    );
    expect(requested.reverseIssuance).toBeNull();
    await f.expectOk(f.call('POST', f.adminPath(id, '/invoice-issued'), ctx.admin));
    const done = await f.expectOk(f.call('POST', f.adminPath(id, '/invoice-paid'), ctx.admin));
    expect(done.status).toBe('SETTLEMENT_COMPLETED');
  });

  it('invoice-paid completes only from AWAITING_ADVERTISER_PAYMENT', async () => {
    const id = await direct(ctx.individual.id);
    const error = await f.expectError(
      f.call('POST', f.partnerPath(id, '/invoice-paid'), ctx.individual.token),
      409,
      'INVALID_STATUS_TRANSITION',
    );
    expect(error.message).toContain('SETTLEMENT_PENDING');
  });

  it('PLATFORM_SETTLEMENT-only actions are a 409 SETTLEMENT_TYPE_MISMATCH on DIRECT_INVOICE', async () => {
    const id = await direct(ctx.individual.id);
    await f.expectOk(f.call('POST', f.partnerPath(id, '/request'), ctx.individual.token));
    for (const [method, path, body] of [
      ['POST', '/retry-issuance', undefined],
      ['PATCH', '/status', { status: 'ADVERTISER_PAID' }],
      ['POST', '/start-payout', undefined],
      ['POST', '/complete', undefined],
    ] as const) {
      await f.expectError(
        f.call(method, f.adminPath(id, path), ctx.admin, body),
        409,
        'SETTLEMENT_TYPE_MISMATCH',
      );
    }
  });

  it('DIRECT_INVOICE-only actions are a 409 SETTLEMENT_TYPE_MISMATCH on PLATFORM_SETTLEMENT', async () => {
    const id = await f.newSettlement(ctx.admin, {
      partnerId: ctx.individual.id,
      advertiserId: ctx.advertiserId,
    });
    await f.expectOk(f.call('POST', f.partnerPath(id, '/request'), ctx.individual.token));
    for (const path of ['/invoice-issued', '/invoice-paid']) {
      await f.expectError(
        f.call('POST', f.adminPath(id, path), ctx.admin),
        409,
        'SETTLEMENT_TYPE_MISMATCH',
      );
      await f.expectError(
        f.call('POST', f.partnerPath(id, path), ctx.individual.token),
        409,
        'SETTLEMENT_TYPE_MISMATCH',
      );
    }
  });
});

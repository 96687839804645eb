import { describe, expect, it } from 'vitest';
import * as f from './support.js';

/** PLATFORM_SETTLEMENT of a business partner (spec section 3): its tax invoice before the payout. */
describe('PLATFORM_SETTLEMENT flow, business partners', () => {
  const ctx = f.usePartnerOfEveryType();

  it.each(['CORPORATE_BUSINESS', 'INDIVIDUAL_BUSINESS'] as const)(
    '%s partner: reverse issuance on request, and no completion before its tax invoice (S4)',
    async (type) => {
      const partner = ctx.partners[type];
      const id = await f.newSettlement(ctx.admin, {
        partnerId: partner.id,
        advertiserId: ctx.advertiserId,
        agencyId: 2,
      });

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
      const outbox = await f.outboxOf(ctx.db, id);
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
        f.call('GET', f.adminPath(id, '/reverse-issuance-status'), ctx.admin),
      );
      expect(status).toMatchObject({ settlementId: id, status: 'PENDING', grantUrl: null });
      // The provider is down for this partner (support.ts): no approval URL can be issued.
      await f.expectError(
        f.call('GET', f.partnerPath(id, '/reverse-issuance-grant-url'), partner.token),
        503,
        'PROVIDER_UNAVAILABLE',
      );

      const issued = await f.expectOk(
        f.call('POST', f.adminPath(id, '/retry-issuance'), ctx.admin),
      );
      expect(issued.advertiserInvoice).toMatchObject({
        agencyId: 2,
        bankName: 'KB Kookmin Bank',
        accountNumber: '123456-01-234567',
        subtotal: '1000000.00',
        taxAmount: '100000.00',
        totalAmount: '1100000.00',
      });
      await f.expectOk(
        f.call('PATCH', f.adminPath(id, '/status'), ctx.admin, { status: 'ADVERTISER_PAID' }),
      );
      const payingOut = await f.expectOk(
        f.call('POST', f.adminPath(id, '/start-payout'), ctx.admin),
      );
      expect(payingOut.partnerPayout).toMatchObject({
        status: 'PENDING',
        subtotal: '800000.00',
        taxAmount: '0.00',
        totalAmount: '800000.00',
      });
      const events = (await f.outboxOf(ctx.db, id)).map((r) => r.event);
      expect(events.at(-2)).toBe('SETTLEMENT_STATUS_CHANGED');
      expect(events.at(-1)).toBe('INVOICE_REQUEST_PARTNER');

      await f.expectError(
        f.call('POST', f.adminPath(id, '/complete'), ctx.admin),
        409,
        'TAX_INVOICE_NOT_RECEIVED',
      );
      await f.expectError(
        f.call('PATCH', f.adminPath(id, '/status'), ctx.admin, { status: 'SETTLEMENT_COMPLETED' }),
        409,
        'TAX_INVOICE_NOT_RECEIVED',
      );

      const confirmed = await f.confirmPartnerInvoiceReceived(ctx.admin, id, 'TI-2026-0001');
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
      const again = await f.confirmPartnerInvoiceReceived(ctx.admin, id);
      expect(again.errors?.[0]?.extensions?.['code']).toBe('CONFLICT');

      const done = await f.expectOk(f.call('POST', f.adminPath(id, '/complete'), ctx.admin));
      expect(done.status).toBe('SETTLEMENT_COMPLETED');
      expect(done.partnerPayout).toMatchObject({ status: 'COMPLETED' });
    },
  );
});

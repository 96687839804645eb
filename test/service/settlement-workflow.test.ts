import { describe, expect, it } from 'vitest';
import { AdvertiserInvoice } from '@campaign/settlement';
import { useWorkflow } from './workflow-support.js';

/**
 * The settlement triggers against real PostgreSQL, called as the resolvers call them (no HTTP):
 * every family of spec section 3 and the writes each leaves.
 */
const w = useWorkflow();

describe('settlement workflow (service tier)', () => {
  it('PLATFORM_SETTLEMENT, business partner: request to completion', async () => {
    const id = await w.newSettlement('CORPORATE_BUSINESS');
    const partner = w.partners.CORPORATE_BUSINESS.actor;
    await w.partnerRequest.request(w.em(), partner, id, { reason: 'done' });
    expect((await w.rows(id)).reverse).toMatchObject({
      status: 'PENDING',
      issuanceKey: `${id}-R1`,
    });
    await w.platformFlow.retryIssuance(w.em(), w.admin, id);
    await w.statusChange.changeStatus(w.em(), w.admin, id, { status: 'ADVERTISER_PAID' });
    await w.platformFlow.startPayout(w.em(), w.admin, id);
    const before = await w.rows(id);
    expect(before.invoice).toMatchObject({ status: 'PAID', invoiceNumber: expect.any(String) });
    expect(before.payout).toMatchObject({ status: 'PENDING', payoutNumber: expect.any(String) });
    expect(before.payout!.totalAmount.toFixed(2)).toBe('800000.00');

    await w.rejects(w.platformFlow.complete(w.em(), w.admin, id), 'TAX_INVOICE_NOT_RECEIVED');
    expect((await w.rows(id)).settlement.version).toBe(before.settlement.version);
    await w.platformFlow.confirmPartnerInvoiceReceived(w.em(), w.admin, id, {
      partnerInvoiceNumber: 'TI-1',
    });
    expect((await w.rows(id)).payout).toMatchObject({ status: 'INVOICE_RECEIVED' });
    await w.platformFlow.complete(w.em(), w.admin, id, { transactionId: 'TX-1' });

    const after = await w.rows(id);
    expect(after.settlement).toMatchObject({ status: 'SETTLEMENT_COMPLETED', version: 7 });
    expect(after.campaign.status).toBe('COMPLETED');
    expect(after.payout).toMatchObject({ status: 'COMPLETED', transactionId: 'TX-1' });
    expect(after.audit).toEqual([
      'CREATED:SETTLEMENT_PENDING',
      'STATUS_CHANGED:AWAITING_ADVERTISER_PAYMENT',
      'ISSUANCE_REQUESTED:AWAITING_ADVERTISER_PAYMENT',
      'STATUS_CHANGED:ADVERTISER_PAID',
      'STATUS_CHANGED:PARTNER_PAYOUT_PROCESSING',
      'PARTNER_INVOICE_RECEIVED:PARTNER_PAYOUT_PROCESSING',
      'STATUS_CHANGED:SETTLEMENT_COMPLETED',
    ]);
    expect(after.events).toEqual([
      'SETTLEMENT_REQUESTED',
      'SETTLEMENT_STATUS_CHANGED',
      'TAX_INVOICE_REVERSE_ISSUE_REQUEST',
      'TAX_INVOICE_ISSUE_REQUEST',
      'PAYMENT_REQUEST_ADVERTISER',
      'PAYMENT_CONFIRMED_ADVERTISER',
      'ADVERTISER_PAID_PARTNER',
      'SETTLEMENT_STATUS_CHANGED',
      'SETTLEMENT_STATUS_CHANGED',
      'INVOICE_REQUEST_PARTNER',
      'PAYOUT_COMPLETED_PARTNER',
      'SETTLEMENT_STATUS_CHANGED',
    ]);
    expect(new Set(after.dedupeKeys).size).toBe(after.dedupeKeys.length);
  });

  it('DIRECT_INVOICE: request, invoice-issued once, invoice-paid completes at once', async () => {
    const id = await w.newSettlement('INDIVIDUAL', 'DIRECT_INVOICE');
    const partner = w.partners.INDIVIDUAL.actor;
    expect((await w.rows(id)).settlement.commissionAmount.toFixed(2)).toBe('0.00');
    await w.partnerRequest.request(w.em(), partner, id);
    await w.rejects(w.platformFlow.retryIssuance(w.em(), w.admin, id), 'SETTLEMENT_TYPE_MISMATCH');
    await w.directFlow.markInvoiceIssued(w.em(), partner, id);
    await w.rejects(w.directFlow.markInvoiceIssued(w.em(), w.admin, id), 'CONFLICT');
    await w.directFlow.markInvoicePaid(w.em(), partner, id);
    const after = await w.rows(id);
    expect(after.settlement).toMatchObject({ status: 'SETTLEMENT_COMPLETED', version: 4 });
    expect(after.settlement.invoicePaidAt).toBeInstanceOf(Date);
    expect(after.campaign.status).toBe('COMPLETED');
    expect(after.reverse).toBeNull();
    expect(after.events).toEqual([
      'SETTLEMENT_REQUESTED',
      'SETTLEMENT_STATUS_CHANGED',
      'DIRECT_SETTLEMENT_REQUEST',
      'INVOICE_ISSUED_ADVERTISER',
      'PAYMENT_CONFIRMED_ADVERTISER',
      'SETTLEMENT_STATUS_CHANGED',
    ]);
  });

  it('type change: allowed before any invoice is issued, then 409', async () => {
    const id = await w.newSettlement('CORPORATE_BUSINESS');
    await w.partnerRequest.request(w.em(), w.partners.CORPORATE_BUSINESS.actor, id);
    await w.platformFlow.retryIssuance(w.em(), w.admin, id);
    const draft = (await w.rows(id)).invoice!;
    await w.typeChange.changeType(w.em(), w.admin, id, { settlementType: 'DIRECT_INVOICE' });
    const changed = await w.rows(id);
    expect(changed.settlement).toMatchObject({
      status: 'SETTLEMENT_PENDING',
      settlementType: 'DIRECT_INVOICE',
      advertiserInvoiceId: null,
      requestedAt: null,
    });
    expect(changed.settlement.payoutAmount.toFixed(2)).toBe('1000000.00');
    expect(changed.campaign.settlementType).toBe('DIRECT_INVOICE');
    expect((await w.em().findOneOrFail(AdvertiserInvoice, { id: draft.id })).status).toBe(
      'CANCELLED',
    );
    expect(changed.reverse?.status).toBe('CANCELLED');
    expect(changed.events.slice(-3)).toEqual([
      'SETTLEMENT_STATUS_CHANGED',
      'TAX_INVOICE_REVERSE_CANCEL_REQUEST',
      // Its forward request, still pending, is withdrawn at the provider (issue 23).
      'TAX_INVOICE_FORWARD_WITHDRAW_REQUEST',
    ]);
    await w.rejects(
      w.typeChange.changeType(w.em(), w.admin, id, { settlementType: 'DIRECT_INVOICE' }),
      'CONFLICT',
    );
    await w.directFlow.markInvoiceIssued(w.em(), w.admin, id);
    await w.rejects(
      w.typeChange.changeType(w.em(), w.admin, id, { settlementType: 'PLATFORM_SETTLEMENT' }),
      'SETTLEMENT_TYPE_CHANGE_NOT_ALLOWED',
    );
  });
});

import type { EntityManager } from '@mikro-orm/postgresql';
import { nextDocumentNumber } from '../numbering/document-counter.js';
import type { SettlementStep } from '../settlement/settlement-step.js';
import { PartnerPayout, type PartnerPayoutStatus } from './partner-payout.entity.js';

/** Partner payouts: created on start-payout (spec 4.3), never by route. */
export class PayoutService {
  /**
   * subtotal = settlement amount, taxAmount = withholding, total = payout amount, the
   * settlement's bank snapshot, the next PAY number of the Seoul month. An INDIVIDUAL partner
   * needs no tax invoice, so its payout is PROCESSING at once; a business partner's waits in
   * PENDING for its tax invoice (INVOICE_RECEIVED once it is in).
   */
  async createFor(step: SettlementStep): Promise<PartnerPayout> {
    const s = step.settlement;
    const status: PartnerPayoutStatus = !step.isBusinessPartner
      ? 'PROCESSING'
      : s.partnerInvoiceReceivedAt
        ? 'INVOICE_RECEIVED'
        : 'PENDING';
    const payout = step.tx.create(PartnerPayout, {
      payoutNumber: await nextDocumentNumber(step.tx, 'PAY', step.now),
      partnerId: step.partner.id,
      partnerName: step.partner.name,
      payoutType: 'PER_CAMPAIGN',
      periodStart: null,
      periodEnd: null,
      subtotal: s.settlementAmount,
      taxAmount: s.withholdingTaxAmount,
      totalAmount: s.payoutAmount,
      partnerInvoiceNumber: null,
      partnerInvoiceFileKey: null,
      partnerInvoiceReceivedAt: s.partnerInvoiceReceivedAt,
      status,
      paidAt: null,
      transactionId: null,
      bankName: s.bankName,
      accountNumber: s.accountNumber,
      accountHolder: s.accountHolder,
    } as never);
    await step.tx.flush();
    return payout;
  }

  find(em: EntityManager, id: string | null): Promise<PartnerPayout | null> {
    return id === null ? Promise.resolve(null) : em.findOne(PartnerPayout, { id });
  }

  /** Cancels the payout if no settlement other than `settlementId` holds it (S6). */
  async cancelIfOnlyFor(
    em: EntityManager,
    payout: PartnerPayout | null,
    settlementId: string,
  ): Promise<boolean> {
    if (!payout || payout.status === 'CANCELLED' || payout.status === 'COMPLETED') return false;
    const others = await em.execute<{ n: number }[]>(
      `select count(*)::int as n from settlement where partner_payout_id = ? and id <> ?`,
      [payout.id, settlementId],
    );
    if (Number(others[0]!.n) > 0) return false;
    await em.nativeUpdate(PartnerPayout, { id: payout.id }, { status: 'CANCELLED' });
    return true;
  }
}

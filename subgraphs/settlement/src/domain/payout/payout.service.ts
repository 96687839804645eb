import type { EntityManager } from '@mikro-orm/postgresql';
import type { Decimal } from 'decimal.js';
import { bankAccountOf, type BankAccount } from '../../kernel/money/bank-account.js';
import { nextDocumentNumber } from '../../kernel/numbering/document-counter.repository.js';
import { PartnerPayout, type PartnerPayoutStatus } from './partner-payout.entity.js';

/** What a per-campaign payout is made of: the settlement's amounts and bank snapshot. */
export interface PerCampaignPayout {
  partnerId: string;
  partnerName: string;
  settlementAmount: Decimal;
  withholdingTaxAmount: Decimal;
  payoutAmount: Decimal;
  bankAccount: BankAccount;
  /** Business partners issue a tax invoice before they are paid; INDIVIDUAL partners do not. */
  needsTaxInvoice: boolean;
  partnerInvoiceReceivedAt: Date | null;
  /** The partner's tax invoice when it is already in (an approved reverse issuance). */
  partnerInvoiceNumber?: string | null;
  partnerInvoiceFileKey?: string | null;
  at: Date;
}

/**
 * Partner payouts (spec 2.5a): created on start-payout (spec 4.3), never by route. The only
 * writer of `partner_payout`.
 */
export class PayoutService {
  /**
   * subtotal = settlement amount, taxAmount = withholding, total = payout amount, the next PAY
   * number of the Seoul month. A payout that needs no tax invoice is PROCESSING at once; one
   * that does waits in PENDING (INVOICE_RECEIVED once the invoice is in).
   */
  async createPerCampaign(tx: EntityManager, values: PerCampaignPayout): Promise<PartnerPayout> {
    const status: PartnerPayoutStatus = !values.needsTaxInvoice
      ? 'PROCESSING'
      : values.partnerInvoiceReceivedAt
        ? 'INVOICE_RECEIVED'
        : 'PENDING';
    const payout = tx.create(PartnerPayout, {
      payoutNumber: await nextDocumentNumber(tx, 'PAY', values.at),
      partnerId: values.partnerId,
      partnerName: values.partnerName,
      payoutType: 'PER_CAMPAIGN',
      periodStart: null,
      periodEnd: null,
      subtotal: values.settlementAmount,
      taxAmount: values.withholdingTaxAmount,
      totalAmount: values.payoutAmount,
      partnerInvoiceNumber: values.partnerInvoiceNumber ?? null,
      partnerInvoiceFileKey: values.partnerInvoiceFileKey ?? null,
      partnerInvoiceReceivedAt: values.partnerInvoiceReceivedAt,
      status,
      paidAt: null,
      transactionId: null,
      ...bankAccountOf(values.bankAccount),
    });
    await tx.flush();
    return payout;
  }

  find(em: EntityManager, id: string | null): Promise<PartnerPayout | null> {
    return id === null ? Promise.resolve(null) : em.findOne(PartnerPayout, { id });
  }

  /** The partner's tax invoice is in: recorded, and a PENDING payout becomes INVOICE_RECEIVED. */
  async recordPartnerInvoice(
    tx: EntityManager,
    payout: PartnerPayout | null,
    invoice: {
      receivedAt: Date;
      partnerInvoiceNumber: string | null;
      /** Where the document is (the provider's URL, for a reverse-issued invoice). */
      partnerInvoiceFileKey?: string | null;
    },
  ): Promise<void> {
    if (!payout) return;
    await tx.nativeUpdate(
      PartnerPayout,
      { id: payout.id },
      {
        partnerInvoiceReceivedAt: invoice.receivedAt,
        partnerInvoiceNumber: invoice.partnerInvoiceNumber,
        ...(invoice.partnerInvoiceFileKey !== undefined
          ? { partnerInvoiceFileKey: invoice.partnerInvoiceFileKey }
          : {}),
        ...(payout.status === 'PENDING' ? { status: 'INVOICE_RECEIVED' as const } : {}),
      },
    );
  }

  /** The money was sent: COMPLETED with the transfer's time and id. */
  async complete(
    tx: EntityManager,
    payout: PartnerPayout | null,
    transfer: { paidAt: Date; transactionId: string | null },
  ): Promise<void> {
    if (!payout) return;
    await tx.nativeUpdate(
      PartnerPayout,
      { id: payout.id },
      { status: 'COMPLETED', paidAt: transfer.paidAt, transactionId: transfer.transactionId },
    );
  }

  /**
   * Cancels the payout unless it is paid or another settlement holds it too (`shared`, asked of
   * the settlement side, S6); returns it when cancelled.
   */
  async cancelIfOnlyFor(
    tx: EntityManager,
    payout: PartnerPayout | null,
    shared: (payoutId: string) => Promise<boolean>,
  ): Promise<PartnerPayout | null> {
    if (!payout || payout.status === 'CANCELLED' || payout.status === 'COMPLETED') return null;
    if (await shared(payout.id)) return null;
    await tx.nativeUpdate(PartnerPayout, { id: payout.id }, { status: 'CANCELLED' });
    return payout;
  }
}

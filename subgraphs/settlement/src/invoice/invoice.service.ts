import type { EntityManager } from '@mikro-orm/postgresql';
import type { Decimal } from 'decimal.js';
import { bankAccountOf, type BankAccount } from '../money/bank-account.js';
import { nextDocumentNumber } from '../numbering/document-counter.js';
import { Settlement } from '../settlement/settlement.entity.js';
import { AdvertiserInvoice } from './advertiser-invoice.entity.js';
import { calculateInvoiceAmounts } from './invoice-amounts.js';

/** What a per-campaign invoice is made of. */
export interface PerCampaignInvoice {
  advertiserId: string;
  advertiserName: string;
  /** The settlement's agency; null means the default agency. */
  agencyId: string | null;
  /** The campaign price: VAT is added on top. */
  supplyAmount: Decimal;
  /** Where the advertiser pays: the agency's deposit account. */
  depositAccount: BankAccount;
  at: Date;
}

/**
 * Advertiser invoices (spec 2.5): created on the admin's issuance request (spec 4.3), never by
 * route. The only writer of `advertiser_invoice`.
 */
export class InvoiceService {
  /** A DRAFT invoice with the next INV number of the Seoul month and VAT 10% (S1, S7). */
  async createPerCampaign(
    tx: EntityManager,
    values: PerCampaignInvoice,
  ): Promise<AdvertiserInvoice> {
    const invoice = tx.create(AdvertiserInvoice, {
      invoiceNumber: await nextDocumentNumber(tx, 'INV', values.at),
      advertiserId: values.advertiserId,
      advertiserName: values.advertiserName,
      agencyId: values.agencyId,
      invoiceType: 'PER_CAMPAIGN',
      periodStart: null,
      periodEnd: null,
      ...calculateInvoiceAmounts(values.supplyAmount),
      taxInvoiceNumber: null,
      taxInvoiceFileKey: null,
      taxInvoiceIssuedAt: null,
      status: 'DRAFT',
      dueDate: null,
      paidAt: null,
      ...bankAccountOf(values.depositAccount),
    } as never);
    await tx.flush();
    return invoice;
  }

  find(em: EntityManager, id: string | null): Promise<AdvertiserInvoice | null> {
    return id === null ? Promise.resolve(null) : em.findOne(AdvertiserInvoice, { id });
  }

  /** DRAFT: requested, no tax invoice issued yet; ISSUED, PAID and OVERDUE mean money is moving. */
  isIssued(invoice: AdvertiserInvoice | null): boolean {
    return invoice !== null && ['ISSUED', 'PAID', 'OVERDUE'].includes(invoice.status);
  }

  /** The deposit arrived: PAID at `at`. A cancelled invoice stays cancelled. */
  async markPaid(tx: EntityManager, invoice: AdvertiserInvoice | null, at: Date): Promise<void> {
    if (!invoice || invoice.status === 'CANCELLED') return;
    await tx.nativeUpdate(AdvertiserInvoice, { id: invoice.id }, { status: 'PAID', paidAt: at });
  }

  /** Cancels the invoice if no settlement other than `settlementId` holds it (S6); returns it then. */
  async cancelIfOnlyFor(
    tx: EntityManager,
    invoice: AdvertiserInvoice | null,
    settlementId: string,
  ): Promise<AdvertiserInvoice | null> {
    if (!invoice || invoice.status === 'CANCELLED') return null;
    const others = await tx.count(Settlement, {
      advertiserInvoiceId: invoice.id,
      id: { $ne: settlementId },
    });
    if (others > 0) return null;
    await tx.nativeUpdate(AdvertiserInvoice, { id: invoice.id }, { status: 'CANCELLED' });
    return invoice;
  }
}

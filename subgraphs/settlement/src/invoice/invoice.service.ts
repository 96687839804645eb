import type { EntityManager } from '@mikro-orm/postgresql';
import { nextDocumentNumber } from '../numbering/document-counter.js';
import type { SettlementStep } from '../settlement/settlement-step.js';
import { AdvertiserInvoice } from './advertiser-invoice.entity.js';
import { calculateInvoiceAmounts } from './invoice-amounts.js';

/** Advertiser invoices: created on the admin's issuance request (spec 4.3), never by route. */
export class InvoiceService {
  /**
   * A per-campaign invoice for the step's settlement: supply amount = campaign price, VAT 10%,
   * the agency's deposit account as a snapshot, the next INV number of the Seoul month.
   */
  async createFor(step: SettlementStep): Promise<AdvertiserInvoice> {
    const agency = await step.agency();
    const amounts = calculateInvoiceAmounts(step.settlement.campaignPrice);
    const invoice = step.tx.create(AdvertiserInvoice, {
      invoiceNumber: await nextDocumentNumber(step.tx, 'INV', step.now),
      advertiserId: step.advertiser.id,
      advertiserName: step.advertiser.name,
      agencyId: step.settlement.agencyId,
      invoiceType: 'PER_CAMPAIGN',
      periodStart: null,
      periodEnd: null,
      ...amounts,
      taxInvoiceNumber: null,
      taxInvoiceFileKey: null,
      taxInvoiceIssuedAt: null,
      status: 'DRAFT',
      dueDate: null,
      paidAt: null,
      bankName: agency.bankName,
      accountNumber: agency.accountNumber,
      accountHolder: agency.accountHolder,
    } as never);
    await step.tx.flush();
    return invoice;
  }

  find(em: EntityManager, id: string | null): Promise<AdvertiserInvoice | null> {
    return id === null ? Promise.resolve(null) : em.findOne(AdvertiserInvoice, { id });
  }

  /** DRAFT: requested, no tax invoice issued yet; ISSUED, PAID and OVERDUE mean money is moving. */
  isIssued(invoice: AdvertiserInvoice | null): boolean {
    return invoice !== null && ['ISSUED', 'PAID', 'OVERDUE'].includes(invoice.status);
  }

  /** Cancels the invoice if no settlement other than `settlementId` holds it (S6). */
  async cancelIfOnlyFor(
    em: EntityManager,
    invoice: AdvertiserInvoice | null,
    settlementId: string,
  ): Promise<boolean> {
    if (!invoice || invoice.status === 'CANCELLED') return false;
    const others = await em.execute<{ n: number }[]>(
      `select count(*)::int as n from settlement where advertiser_invoice_id = ? and id <> ?`,
      [invoice.id, settlementId],
    );
    if (Number(others[0]!.n) > 0) return false;
    await em.nativeUpdate(AdvertiserInvoice, { id: invoice.id }, { status: 'CANCELLED' });
    return true;
  }
}

import type { AdvertiserInvoice } from '../invoice/advertiser-invoice.entity.js';
import type { InvoiceService } from '../invoice/invoice.service.js';
import type { Settlement } from './settlement.entity.js';

/** How the window is described to a caller who met its end. */
export const MONEY_WINDOW =
  'only in SETTLEMENT_PENDING or AWAITING_ADVERTISER_PAYMENT before any invoice is issued';

/**
 * The window of S5, one definition for every change that recalculates a settlement (its type,
 * its campaign's price, commission rate or agency): open while the settlement is
 * SETTLEMENT_PENDING or AWAITING_ADVERTISER_PAYMENT, its advertiser invoice is not issued and,
 * for DIRECT_INVOICE, no tax invoice was marked issued. Null while open; otherwise why it closed,
 * as a clause ("it is ADVERTISER_PAID").
 */
export function whyMoneyMoved(
  settlement: Pick<Settlement, 'status' | 'invoiceIssuedAt'>,
  invoice: AdvertiserInvoice | null,
  invoices: Pick<InvoiceService, 'isIssued'>,
): string | null {
  if (
    settlement.status !== 'SETTLEMENT_PENDING' &&
    settlement.status !== 'AWAITING_ADVERTISER_PAYMENT'
  )
    return `it is ${settlement.status}`;
  if (invoice && invoices.isIssued(invoice))
    return `its advertiser invoice ${invoice.invoiceNumber} is ${invoice.status}`;
  if (settlement.invoiceIssuedAt) return 'its tax invoice was already issued';
  return null;
}

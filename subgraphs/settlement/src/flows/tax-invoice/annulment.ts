import type { AdvertiserInvoice } from '../../domain/invoice/advertiser-invoice.entity.js';
import type { InvoiceService } from '../../domain/invoice/invoice.service.js';
import type { Notice } from '../notice.js';
import type { SettlementStep } from '../settlement-step.js';
import { forwardWithdrawRequest, taxInvoiceCancellationRequest } from './tax-invoice-notices.js';

/**
 * What an advertiser invoice just cancelled (a settlement's cancel, a type change, a campaign
 * change) asks of the provider (issue 23 item 1). A tax invoice once issued cannot be deleted:
 * an issued one is annulled by a cancellation tax invoice under the invoice's one cancellation
 * key; a request still pending is withdrawn (if the provider issued it meanwhile, the withdrawal
 * learns so and the issue is annulled the same way, forward-results.ts). Returns the provider
 * requests to queue with the step's other notices.
 */
export async function followCancelledInvoice(
  step: SettlementStep,
  invoices: InvoiceService,
  invoice: AdvertiserInvoice | null,
): Promise<Notice[]> {
  if (!invoice) return [];
  if (invoice.taxInvoiceNumber !== null && invoice.taxInvoiceIssuanceKey !== null) {
    return annulIssued(step, invoices, invoice, {
      originalIssuanceKey: invoice.taxInvoiceIssuanceKey,
      taxInvoiceNumber: invoice.taxInvoiceNumber,
    });
  }
  if (invoice.taxInvoiceStatus === 'PENDING' && invoice.taxInvoiceIssuanceKey !== null) {
    return [forwardWithdrawRequest(step, invoice.taxInvoiceIssuanceKey)];
  }
  return [];
}

/** The cancellation request of an issued tax invoice (none when one was asked for already). */
export async function annulIssued(
  step: SettlementStep,
  invoices: InvoiceService,
  invoice: AdvertiserInvoice,
  issued: { originalIssuanceKey: string; taxInvoiceNumber: string },
): Promise<Notice[]> {
  const issuanceKey = await invoices.startCancellation(step.tx, invoice);
  return issuanceKey
    ? [taxInvoiceCancellationRequest(step, invoice, { issuanceKey, ...issued })]
    : [];
}

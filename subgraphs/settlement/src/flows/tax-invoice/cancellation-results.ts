import { failureOf, issuedDocumentOf, type ApplyResult } from './issuance-outcome.js';
import { invoiceOutcomeRule } from './locked-settlement.js';
import { reportFailure, taxInvoiceCancelled } from './tax-invoice-notices.js';

/**
 * Applies what the provider says about a cancellation tax invoice (issue 23 item 1) inside `tx`,
 * from its answer, a live look-up or the webhook (kind CANCELLATION). Only while the invoice's
 * cancellation is PENDING does anything change, so a result delivered twice is applied once.
 *
 * SUCCESS: its number and time on the invoice, the advertiser's INVOICE_CANCELLED_ADVERTISER
 * e-mail and `[TAX_INVOICE_CANCELLED]` in the settlement's thread. FAILURE or CANCELLED: stored
 * and alerted (`[TAX_INVOICE_FAILED]`, kind CANCELLATION): the forward tax invoice is still live.
 */
export const applyCancellationOutcome = invoiceOutcomeRule(
  (invoices, tx, key) => invoices.findByCancellationKey(tx, key),
  async ({ tx, step, invoice }, { invoices }, outcome): Promise<ApplyResult> => {
    if (!invoice || invoice.cancellationTaxInvoiceStatus !== 'PENDING') return 'unchanged';
    if (outcome.status === 'PENDING') return 'unchanged';

    if (outcome.status === 'SUCCESS') {
      const issued = issuedDocumentOf(outcome);
      if (!issued) return 'unchanged';
      await invoices.recordCancellation(tx, invoice, { status: 'SUCCESS', ...issued });
      if (!step) return 'applied';
      await step.claim();
      await step.auditInPlace({
        action: 'TAX_INVOICE_CANCELLED',
        details: {
          invoiceNumber: invoice.invoiceNumber,
          taxInvoiceNumber: invoice.taxInvoiceNumber,
          issuanceKey: outcome.issuanceKey,
          cancellationTaxInvoiceNumber: issued.taxInvoiceNumber,
          documentUrl: issued.documentUrl,
        },
      });
      await step.notify(taxInvoiceCancelled(step, invoice, issued));
      return 'applied';
    }

    const failure = failureOf(outcome, outcome.status);
    await invoices.recordCancellation(tx, invoice, failure);
    if (!step) return 'applied';
    await reportFailure(step, 'CANCELLATION', outcome.issuanceKey, invoice.invoiceNumber, failure);
    return 'applied';
  },
);

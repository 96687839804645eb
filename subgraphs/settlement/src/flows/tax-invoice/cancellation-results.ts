import type { EntityManager } from '@mikro-orm/postgresql';
import type { Principal } from '../../kernel/principal.js';
import type { WorkflowServices } from '../workflow-services.js';
import { failureOf, type ApplyResult, type IssuanceOutcome } from './issuance-outcome.js';
import { lockedInvoice } from './locked-settlement.js';
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
export async function applyCancellationOutcome(
  tx: EntityManager,
  services: WorkflowServices,
  outcome: IssuanceOutcome,
  actor: Principal,
): Promise<ApplyResult> {
  const { invoices } = services;
  const locked = await lockedInvoice(tx, actor, () =>
    invoices.findByCancellationKey(tx, outcome.issuanceKey),
  );
  if (!locked) return 'unknown';
  const { step, invoice } = locked;
  if (!invoice || invoice.cancellationTaxInvoiceStatus !== 'PENDING') return 'unchanged';
  if (outcome.status === 'PENDING') return 'unchanged';

  if (outcome.status === 'SUCCESS') {
    if (!outcome.taxInvoiceNumber) return 'unchanged';
    const issued = {
      taxInvoiceNumber: outcome.taxInvoiceNumber,
      documentUrl: outcome.documentUrl,
      issuedAt: outcome.at,
    };
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
}

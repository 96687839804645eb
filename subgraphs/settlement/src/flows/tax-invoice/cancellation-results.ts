import type { EntityManager } from '@mikro-orm/postgresql';
import type { Principal } from '../../kernel/principal.js';
import type { WorkflowServices } from '../workflow-services.js';
import type { ApplyResult, IssuanceOutcome } from './issuance-outcome.js';
import { lockedSettlementStep } from './locked-settlement.js';
import { taxInvoiceCancelled, taxInvoiceFailed } from './tax-invoice-notices.js';

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
  const found = await invoices.findByCancellationKey(tx, outcome.issuanceKey);
  if (!found) return 'unknown';
  const where = found.cancelledForSettlementId
    ? { id: found.cancelledForSettlementId }
    : { advertiserInvoiceId: found.id };
  const step = await lockedSettlementStep(tx, where, actor);
  const invoice = await invoices.findByCancellationKey(tx, outcome.issuanceKey);
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
    await step.audit({
      action: 'TAX_INVOICE_CANCELLED',
      fromStatus: step.settlement.status,
      toStatus: step.settlement.status,
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

  const failure = {
    status: outcome.status,
    code: outcome.failureCode ?? outcome.status,
    message: outcome.failureMessage ?? `The provider reported ${outcome.status}.`,
  };
  await invoices.recordCancellation(tx, invoice, failure);
  if (!step) return 'applied';
  await step.claim();
  await step.audit({
    action: 'TAX_INVOICE_FAILED',
    fromStatus: step.settlement.status,
    toStatus: step.settlement.status,
    details: {
      kind: 'CANCELLATION',
      invoiceNumber: invoice.invoiceNumber,
      issuanceKey: outcome.issuanceKey,
      failureCode: failure.code,
      failureMessage: failure.message,
    },
  });
  await step.notify([
    taxInvoiceFailed(step, {
      kind: 'CANCELLATION',
      issuanceKey: outcome.issuanceKey,
      status: outcome.status,
      failureCode: failure.code,
      failureMessage: failure.message,
      invoiceNumber: invoice.invoiceNumber,
    }),
  ]);
  return 'applied';
}

import * as notices from '../settlement-notices.js';
import type { Notice } from '../notice.js';
import type { SettlementStep } from '../settlement-step.js';
import type { WorkflowServices } from '../workflow-services.js';
import type { SettlementStatus } from '../../kernel/settlement-types.js';
import { failureOf, issuedDocumentOf, type ApplyResult } from './issuance-outcome.js';
import { annulIssued } from './annulment.js';
import { invoiceOutcomeRule } from './locked-settlement.js';
import { reportFailure, taxInvoiceIssuedAdvertiser } from './tax-invoice-notices.js';

/**
 * Applies what the provider says about a forward issuance (the agency's tax invoice to the
 * advertiser) inside `tx`. Only the invoice's current attempt, and only while it is PENDING,
 * changes anything: a result never moves it backwards (SUCCESS, FAILURE and CANCELLED are
 * final for their key; a retry after a failure is a new key).
 *
 * SUCCESS: number, document URL and time on the invoice, DRAFT → ISSUED, the advertiser's
 * INVOICE_ISSUED_ADVERTISER e-mail, and the specification's "success step": a settlement still in
 * SETTLEMENT_PENDING moves to AWAITING_ADVERTISER_PAYMENT, with what that move brings a business
 * partner (its reverse issuance, as the partner's request would have; the request itself is no
 * longer possible from there). FAILURE or CANCELLED: the code and message on the invoice and a
 * team-chat alert; the admin's retry-issuance asks again with a new key.
 *
 * An invoice cancelled meanwhile (issue 23 item 1) is never revived: a SUCCESS is stored (the
 * document exists) and annulled by a cancellation tax invoice; an end without issue is the
 * withdrawal it asked for, stored on the invoice without an alert.
 */
export const applyForwardOutcome = invoiceOutcomeRule(
  (invoices, tx, key) => invoices.findByIssuanceKey(tx, key),
  async ({ tx, step, invoice }, services, outcome): Promise<ApplyResult> => {
    const { invoices } = services;
    if (!invoice || outcome.status === 'PENDING') return 'unchanged';
    const cancelled = invoice.status === 'CANCELLED';
    // The provider issued what we had withdrawn (its answer to the withdrawal was lost, or the
    // request reached it after): the provider is right about what exists, so it is annulled too.
    const issuedAfterWithdrawal =
      cancelled && outcome.status === 'SUCCESS' && invoice.taxInvoiceNumber === null;
    if (invoice.taxInvoiceStatus !== 'PENDING' && !issuedAfterWithdrawal) return 'unchanged';

    if (outcome.status === 'SUCCESS') {
      const issued = issuedDocumentOf(outcome);
      if (!issued) return 'unchanged';
      await invoices.recordTaxInvoiceIssued(tx, invoice, issued);
      if (!step) return 'applied';
      const out: Notice[] = [];
      let status = step.settlement.status;
      if (cancelled) {
        // Issued after the invoice was cancelled: it never revives it; it is annulled at once.
        await step.claim();
        out.push(
          ...(await annulIssued(step, invoices, invoice, {
            originalIssuanceKey: outcome.issuanceKey,
            taxInvoiceNumber: issued.taxInvoiceNumber,
          })),
        );
      } else if (status === 'SETTLEMENT_PENDING') {
        const moved = await successStep(step, services);
        out.push(...moved.notices);
        status = moved.to;
      } else {
        await step.claim();
      }
      await step.audit({
        action: 'TAX_INVOICE_ISSUED',
        fromStatus: status,
        toStatus: status,
        details: {
          invoiceNumber: invoice.invoiceNumber,
          issuanceKey: outcome.issuanceKey,
          taxInvoiceNumber: issued.taxInvoiceNumber,
          documentUrl: issued.documentUrl,
          ...(cancelled ? { invoiceCancelled: true } : {}),
        },
      });
      // A cancelled invoice keeps the facts, but the advertiser is not told to pay it.
      if (!cancelled) out.unshift(await taxInvoiceIssuedAdvertiser(step, invoice, issued));
      await step.notify(out);
      return 'applied';
    }

    const failure = failureOf(outcome, outcome.status);
    await invoices.recordTaxInvoiceFailed(tx, invoice, failure);
    // A request of a cancelled invoice that ends unissued is what the withdrawal asked for: kept on
    // the invoice, no alert, and the settlement is left alone (claiming it would make the admin's
    // next action, sent right after the cancel or type change, a CONCURRENT_MODIFICATION).
    if (!step || cancelled) return 'applied';
    await reportFailure(step, 'FORWARD', outcome.issuanceKey, invoice.invoiceNumber, failure);
    return 'applied';
  },
);

/**
 * SETTLEMENT_PENDING → AWAITING_ADVERTISER_PAYMENT on the provider's success (a move of the
 * allowed-moves table, trigger `tax-invoice-issued`); returns the status and the notices it adds.
 */
async function successStep(
  step: SettlementStep,
  services: WorkflowServices,
): Promise<{ to: SettlementStatus; notices: Notice[] }> {
  const moved = await step.move('AWAITING_ADVERTISER_PAYMENT', 'tax-invoice-issued', null);
  const out = [moved.notice];
  if (step.isBusinessPartner) {
    const record = await services.reverseIssuances.open(step.tx, step.id, step.now);
    if (record) out.push(await notices.reverseIssueRequest(step, record));
  }
  return { to: moved.to, notices: out };
}

import type { AdvertiserInvoice } from '../domain/invoice/advertiser-invoice.entity.js';
import type { SettlementChanges } from '../domain/settlement/settlement.repository.js';
import type { AuditRecord } from '../journal/audit/audit.js';
import * as notices from './settlement-notices.js';
import { followCancelledInvoice } from './tax-invoice/annulment.js';
import type { SettlementStep } from './settlement-step.js';
import type { WorkflowServices } from './workflow-services.js';

/** How a settlement goes back to SETTLEMENT_PENDING: by what, with what, audited as what. */
export interface PendingReset {
  via: 'type' | 'campaign';
  /** A type change is announced even from SETTLEMENT_PENDING; a campaign change when it moved. */
  announce: 'always' | 'when-moved';
  /** The new terms: amounts, and the type or the agency and price. */
  fields: SettlementChanges;
  audit: Omit<AuditRecord, 'settlementId' | 'actor' | 'fromStatus' | 'toStatus'>;
}

/**
 * Back to SETTLEMENT_PENDING with new terms, the one way for the type change (S5) and the
 * campaign change (issue 12), once each checked that no money has moved: a DRAFT advertiser
 * invoice held only by this settlement is cancelled and an open reverse issuance withdrawn (both
 * were made for the old terms), then the state machine writes the status, the audit entry and
 * the notices.
 */
export async function resetToPending(
  step: SettlementStep,
  { invoices, reverseIssuances }: Pick<WorkflowServices, 'invoices' | 'reverseIssuances'>,
  invoice: AdvertiserInvoice | null,
  reset: PendingReset,
): Promise<void> {
  await step.claim();
  const cancelledInvoice = await invoices.cancelIfOnlyFor(step.tx, invoice, step.id, (id) =>
    step.sharesDocument({ advertiserInvoiceId: id }),
  );
  // Only a DRAFT invoice gets here (the money window): a pending request is withdrawn.
  const provider = await followCancelledInvoice(step, invoices, cancelledInvoice);
  const record = await reverseIssuances.cancelOpen(step.tx, step.id, step.now);
  const moved = await step.resetToPending(reset.via, reset.announce, reset.fields, {
    ...reset.audit,
    details: {
      ...reset.audit.details,
      cancelledInvoice: cancelledInvoice?.invoiceNumber ?? null,
      cancelledReverseIssuance: record?.issuanceKey ?? null,
    },
  });
  const out = moved ? [moved] : [];
  if (record) out.push(notices.reverseCancelRequest(step, record));
  out.push(...provider);
  if (out.length) await step.notify(out);
}

import type { EntityManager } from '@mikro-orm/postgresql';
import type { Principal } from '../../kernel/principal.js';
import type { ReverseIssuance } from '../../domain/reverse-issuance/reverse-issuance.entity.js';
import type { SettlementStep } from '../settlement-step.js';
import type { WorkflowServices } from '../workflow-services.js';
import { failureOf, type ApplyResult, type IssuanceOutcome } from './issuance-outcome.js';
import { lockedSettlementStep } from './locked-settlement.js';
import { reportFailure, reverseIssuanceApprovalPartner } from './tax-invoice-notices.js';

/**
 * Applies what the provider says about a reverse issuance (the business partner's tax invoice to
 * the agency) inside `tx`. Only a PENDING record with that key changes: a result never moves it
 * backwards, and a record cancelled here stays cancelled whatever the provider says later.
 *
 * PENDING with an approval URL: stored with its expiry (when newer than the stored one) and the
 * partner's approval e-mail. SUCCESS: the record, `partnerInvoiceReceivedAt` (S4) and the payout's
 * partner invoice fields. FAILURE or CANCELLED: code and message, and a team-chat alert.
 */
export async function applyReverseOutcome(
  tx: EntityManager,
  services: WorkflowServices,
  outcome: IssuanceOutcome,
  actor: Principal,
): Promise<ApplyResult> {
  const { reverseIssuances } = services;
  const found = await reverseIssuances.findByIssuanceKey(tx, outcome.issuanceKey);
  if (!found) return 'unknown';
  const step = await lockedSettlementStep(tx, { id: found.settlementId }, actor);
  // Read again under the lock: a cancel, a type change or another result may have come first.
  const record = await reverseIssuances.findByIssuanceKey(tx, outcome.issuanceKey);
  if (!step || !record || record.status !== 'PENDING') return 'unchanged';

  switch (outcome.status) {
    case 'PENDING':
      return approvalUrl(step, services, record, outcome);
    case 'SUCCESS':
      return succeeded(step, services, record, outcome);
    default:
      return failed(step, services, record, outcome, outcome.status);
  }
}

async function approvalUrl(
  step: SettlementStep,
  { reverseIssuances }: WorkflowServices,
  record: ReverseIssuance,
  outcome: IssuanceOutcome,
): Promise<ApplyResult> {
  const { approvalUrl: grantUrl, approvalUrlExpiresAt: expiresAt } = outcome;
  if (!grantUrl || !expiresAt || grantUrl === record.grantUrl) return 'unchanged';
  // A late answer carrying an older URL never replaces a newer one.
  if (record.grantUrlExpiresAt && expiresAt <= record.grantUrlExpiresAt) return 'unchanged';
  await reverseIssuances.recordApprovalUrl(step.tx, record, { grantUrl, expiresAt }, step.now);
  await step.claim();
  await step.auditInPlace({
    action: 'REVERSE_ISSUANCE_UPDATED',
    details: {
      issuanceKey: record.issuanceKey,
      approvalUrlIssued: true,
      reissued: record.grantUrl !== null,
      grantUrlExpiresAt: expiresAt.toISOString(),
    },
  });
  await step.notify([
    await reverseIssuanceApprovalPartner(step, {
      issuanceKey: record.issuanceKey,
      approvalUrl: grantUrl,
      expiresAt,
    }),
  ]);
  return 'applied';
}

async function succeeded(
  step: SettlementStep,
  { reverseIssuances, payouts }: WorkflowServices,
  record: ReverseIssuance,
  outcome: IssuanceOutcome,
): Promise<ApplyResult> {
  await reverseIssuances.recordResult(
    step.tx,
    record,
    {
      status: 'SUCCESS',
      taxInvoiceNumber: outcome.taxInvoiceNumber,
      documentUrl: outcome.documentUrl,
      failureCode: null,
      failureMessage: null,
    },
    step.now,
  );
  await step.claim();
  // An admin may have confirmed the partner's invoice by hand already: that record stands.
  const alreadyReceived = step.settlement.partnerInvoiceReceivedAt !== null;
  if (!alreadyReceived) {
    await step.update({ partnerInvoiceReceivedAt: outcome.at });
    const payout = await payouts.find(step.tx, step.settlement.partnerPayoutId);
    await payouts.recordPartnerInvoice(step.tx, payout, {
      receivedAt: outcome.at,
      partnerInvoiceNumber: outcome.taxInvoiceNumber,
      partnerInvoiceFileKey: outcome.documentUrl,
    });
  }
  await step.auditInPlace({
    action: alreadyReceived ? 'REVERSE_ISSUANCE_UPDATED' : 'PARTNER_INVOICE_RECEIVED',
    details: {
      source: 'reverse-issuance',
      issuanceKey: record.issuanceKey,
      partnerInvoiceNumber: outcome.taxInvoiceNumber,
      documentUrl: outcome.documentUrl,
      alreadyReceived,
    },
  });
  return 'applied';
}

async function failed(
  step: SettlementStep,
  { reverseIssuances }: WorkflowServices,
  record: ReverseIssuance,
  outcome: IssuanceOutcome,
  status: 'FAILURE' | 'CANCELLED',
): Promise<ApplyResult> {
  const failure = failureOf(outcome, status);
  await reverseIssuances.recordResult(
    step.tx,
    record,
    {
      status,
      taxInvoiceNumber: null,
      documentUrl: null,
      failureCode: failure.code,
      failureMessage: failure.message,
    },
    step.now,
  );
  await reportFailure(step, 'REVERSE', record.issuanceKey, null, failure);
  return 'applied';
}

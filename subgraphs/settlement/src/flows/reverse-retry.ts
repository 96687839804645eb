import type { EntityManager } from '@mikro-orm/postgresql';
import { PlatformError } from '@campaign/schema';
import * as notices from './settlement-notices.js';
import type { SettlementStep } from './settlement-step.js';
import { TriggerFamily } from './trigger.js';
import { readAction } from './trigger-inputs.js';

/**
 * A business partner's settlement needs the partner's business registration number: the reverse
 * issuance drafts the tax invoice in its name (and a DIRECT_INVOICE partner invoices with it).
 * Checked before anything moves, naming how to record the number (issue 23 item 3).
 */
export function requireBusinessNumber(step: SettlementStep): void {
  if (!step.isBusinessPartner || step.partner.businessNumber) return;
  throw new PlatformError(
    'PARTNER_BUSINESS_NUMBER_MISSING',
    `Partner ${step.partner.name} (${step.partner.entityType}) has no business registration ` +
      `number; an admin records it with the GraphQL mutation updatePartner(id: ${step.partner.id}, ` +
      'input: { businessNumber: "…" }) and the partner requests settlement again.',
    { partnerId: step.partner.id },
  );
}

/**
 * A way out of a failed reverse issuance (issue 23 item 3): after the provider's FAILURE (the
 * partner rejected, the tax authority refused, a missing business number) or a CANCELLED record,
 * a new reverse issuance starts at once with the next issuance key, and the provider decides
 * again. Started by the partner's `reverse-issuance-grant-url` or the admin's
 * `retryReverseIssuance`.
 */
export class ReverseIssuanceRetry extends TriggerFamily {
  readonly retry = this.trigger(readAction, async (step, { reason }) => {
    const { reverseIssuances } = this.services;
    step.requireType('PLATFORM_SETTLEMENT', 'A reverse issuance');
    step.requireOpen('A reverse issuance can be started again');
    step.requireBusinessPartner();
    const record = await reverseIssuances.find(step.tx, step.id);
    if (!record || step.settlement.status === 'SETTLEMENT_PENDING') {
      throw new PlatformError(
        'CONFLICT',
        `Settlement ${step.id} has not been requested yet; the partner's request starts its ` +
          'reverse issuance.',
      );
    }
    if (record.status !== 'FAILURE' && record.status !== 'CANCELLED') {
      throw new PlatformError(
        'CONFLICT',
        `The reverse issuance of settlement ${step.id} is ${record.status}; only a FAILURE or ` +
          'CANCELLED one is started again.',
        { reverseIssuanceStatus: record.status },
      );
    }
    requireBusinessNumber(step);
    await step.claim();
    const opened = await reverseIssuances.open(step.tx, step.id, step.now);
    if (!opened) return;
    await step.audit({
      action: 'REVERSE_ISSUANCE_RETRIED',
      fromStatus: step.settlement.status,
      toStatus: step.settlement.status,
      reason,
      details: {
        previousIssuanceKey: record.issuanceKey,
        previousStatus: record.status,
        previousFailureCode: record.failureCode,
        issuanceKey: opened.issuanceKey,
      },
    });
    await step.notify([await notices.reverseIssueRequest(step, opened)]);
  });

  /** Whether the settlement's reverse issuance is one a retry starts again (FAILURE, CANCELLED). */
  async needsRetry(em: EntityManager, settlementId: string): Promise<boolean> {
    const record = await this.services.reverseIssuances.find(em, settlementId);
    return record?.status === 'FAILURE' || record?.status === 'CANCELLED';
  }
}

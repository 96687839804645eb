import { LockMode, type FilterQuery } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Principal } from '../../kernel/principal.js';
import { openStep, type SettlementStep } from '../settlement-step.js';
import { Settlement } from '../../domain/settlement/settlement.entity.js';
import type { AdvertiserInvoice } from '../../domain/invoice/advertiser-invoice.entity.js';
import type { InvoiceService } from '../../domain/invoice/invoice.service.js';
import type { WorkflowServices } from '../workflow-services.js';
import type { ApplyResult, IssuanceOutcome } from './issuance-outcome.js';

/**
 * Who the provider's results are recorded as (audit trail, status-change notices). Admin scope
 * because a result concerns whichever settlement its key names; the subject says it was not a
 * person.
 */
export const PROVIDER_ACTOR: Principal = {
  subject: 'tax-invoice-provider',
  role: 'SUPER_ADMIN',
  agencyId: null,
  partnerId: null,
};

/**
 * The settlement matching `where`, locked for the rest of `tx` (select … for update), as a
 * SettlementStep. A provider result is not a person's request that may lose a race: holding the
 * row lock before reading the version makes the step's claim always succeed, so a result is
 * never dropped as CONCURRENT_MODIFICATION; a person's change that read the row before us gets
 * that retryable 409 instead (DESIGN S2). The settlement row is locked before any of its
 * documents is read or written, the order every workflow step uses, so the two never deadlock.
 */
export async function lockedSettlementStep(
  tx: EntityManager,
  where: FilterQuery<Settlement>,
  actor: Principal,
): Promise<SettlementStep | null> {
  const settlement = await tx.findOne(Settlement, where, {
    lockMode: LockMode.PESSIMISTIC_WRITE,
    refresh: true,
  });
  return settlement ? openStep(tx, actor, settlement) : null;
}

/** An invoice rule's view of the result: the settlement's step and the invoice, read under the lock. */
export interface LockedInvoice {
  tx: EntityManager;
  step: SettlementStep | null;
  invoice: AdvertiserInvoice | null;
}

/**
 * The rule for the results about one of an advertiser invoice's issuances (forward or
 * cancellation). The invoice the result names (`find`, by its key) and the settlement it reports
 * to are locked as above: the one it is linked to, or, for a cancelled invoice, the one that
 * cancelled it (a type change unlinks it). The invoice is read again under the lock (a concurrent
 * result or retry-issuance may have moved it) and handed to `apply`; `unknown` when no invoice has
 * that key.
 */
export function invoiceOutcomeRule(
  find: (
    invoices: InvoiceService,
    tx: EntityManager,
    key: string,
  ) => Promise<AdvertiserInvoice | null>,
  apply: (
    locked: LockedInvoice,
    services: WorkflowServices,
    outcome: IssuanceOutcome,
  ) => Promise<ApplyResult>,
) {
  return async (
    tx: EntityManager,
    services: WorkflowServices,
    outcome: IssuanceOutcome,
    actor: Principal,
  ): Promise<ApplyResult> => {
    const findIt = () => find(services.invoices, tx, outcome.issuanceKey);
    const found = await findIt();
    if (!found) return 'unknown';
    const where = found.cancelledForSettlementId
      ? { id: found.cancelledForSettlementId }
      : { advertiserInvoiceId: found.id };
    const step = await lockedSettlementStep(tx, where, actor);
    return apply({ tx, step, invoice: await findIt() }, services, outcome);
  };
}

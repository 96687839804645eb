import { LockMode, type FilterQuery } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Principal } from '../../kernel/principal.js';
import { openStep, type SettlementStep } from '../settlement-step.js';
import { Settlement } from '../../domain/settlement/settlement.entity.js';
import type { AdvertiserInvoice } from '../../domain/invoice/advertiser-invoice.entity.js';

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

/**
 * The advertiser invoice a provider result names (`find`, by its key) and the settlement it
 * reports to, locked as above: the one it is linked to, or, for a cancelled invoice, the one that
 * cancelled it (a type change unlinks it). The invoice is read again under the lock (a concurrent
 * result or retry-issuance may have moved it). Null when no invoice has that key.
 */
export async function lockedInvoice(
  tx: EntityManager,
  actor: Principal,
  find: () => Promise<AdvertiserInvoice | null>,
): Promise<{ step: SettlementStep | null; invoice: AdvertiserInvoice | null } | null> {
  const found = await find();
  if (!found) return null;
  const where = found.cancelledForSettlementId
    ? { id: found.cancelledForSettlementId }
    : { advertiserInvoiceId: found.id };
  const step = await lockedSettlementStep(tx, where, actor);
  return { step, invoice: await find() };
}

import type { EntityManager } from '@mikro-orm/postgresql';
import type { LedgerKind } from './credit-ledger-entry.entity.js';
import {
  addToBalance,
  appendLedgerEntry,
  creditBalance,
  reserveCredits,
  settleCredits,
} from './credits.repository.js';

/**
 * Every balance movement is one update of the tenant row plus its ledger entries, in the caller's
 * transaction. The operation's movements are the SQL functions `lens_reserve_credits` and
 * `lens_settle_credits` (migration billed_path), which the engine's start and settlement
 * statements call too: the `credit_balance >= amount` condition, evaluated under the row lock,
 * is what keeps concurrent reservations from ever pushing a balance below zero.
 */
export class CreditsService {
  /** Takes `amount` from the balance; false when the balance cannot cover it (nothing written). */
  readonly reserve = reserveCredits;

  /** Ends a reservation: the whole reservation is released, then what was delivered is charged. */
  readonly settle = settleCredits;

  readonly balance = creditBalance;

  /**
   * Adds credits (a TOP_UP entry with its reason). A top-up that leaves the balance at or above
   * the tenant's low-balance threshold re-arms the alert; nothing else does (a refund that lifts
   * the balance back does not, so a balance hovering at the threshold sends one e-mail).
   */
  async topUp(
    em: EntityManager,
    tenantId: string,
    amount: number,
    reason: string | null = null,
  ): Promise<string> {
    return this.move(em, tenantId, null, 'TOP_UP', amount, reason);
  }

  private async move(
    em: EntityManager,
    tenantId: string,
    operationId: string | null,
    kind: LedgerKind,
    amount: number,
    reason: string | null,
  ): Promise<string> {
    const balanceAfter = await addToBalance(em, tenantId, amount, { rearm: kind === 'TOP_UP' });
    await appendLedgerEntry(em, { tenantId, operationId, kind, amount, balanceAfter, reason });
    return balanceAfter;
  }
}

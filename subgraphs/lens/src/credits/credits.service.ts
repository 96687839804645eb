import type { EntityManager } from '@mikro-orm/postgresql';
import type { LedgerKind } from './credit-ledger-entry.entity.js';

/**
 * Every balance movement is one update of the tenant row plus its ledger entries, in the caller's
 * transaction. The operation's movements are the SQL functions `lens_reserve_credits` and
 * `lens_settle_credits` (migration billed_path), which the engine's start and settlement
 * statements call too: the `credit_balance >= amount` condition, evaluated under the row lock,
 * is what keeps concurrent reservations from ever pushing a balance below zero.
 */
export class CreditsService {
  /** Takes `amount` from the balance; false when the balance cannot cover it (nothing written). */
  async reserve(
    em: EntityManager,
    tenantId: string,
    operationId: string,
    amount: number,
  ): Promise<boolean> {
    const [row] = await em.execute<{ reserved: boolean }[]>(
      `select lens_reserve_credits(?, ?, ?) as reserved`,
      [tenantId, operationId, amount],
    );
    return row!.reserved;
  }

  /** Ends a reservation: the whole reservation is released, then what was delivered is charged. */
  async settle(
    em: EntityManager,
    tenantId: string,
    operationId: string,
    reserved: number,
    charged: number,
  ): Promise<void> {
    await em.execute(`select lens_settle_credits(?, ?, ?, ?)`, [
      tenantId,
      operationId,
      reserved,
      charged,
    ]);
  }

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

  async balance(em: EntityManager, tenantId: string): Promise<string> {
    const rows = await em.execute<{ credit_balance: string }[]>(
      `select credit_balance from tenant where id = ?`,
      [tenantId],
    );
    return rows[0]?.credit_balance ?? '0';
  }

  private async move(
    em: EntityManager,
    tenantId: string,
    operationId: string | null,
    kind: LedgerKind,
    amount: number,
    reason: string | null,
  ): Promise<string> {
    const rows = await em.execute<{ credit_balance: string }[]>(
      `update tenant set credit_balance = credit_balance + ?,
         low_balance_armed = coalesce(low_balance_armed or credit_balance + ? >= alert_below, false)
       where id = ? returning credit_balance`,
      [amount, amount, tenantId],
    );
    const balance = rows[0]!.credit_balance;
    await this.record(em, tenantId, operationId, kind, amount, balance, reason);
    return balance;
  }

  private async record(
    em: EntityManager,
    tenantId: string,
    operationId: string | null,
    kind: LedgerKind,
    amount: number,
    balanceAfter: string,
    reason: string | null,
  ): Promise<void> {
    await em.execute(
      `insert into credit_ledger_entry (tenant_id, operation_id, kind, amount, balance_after, reason)
       values (?, ?, ?, ?, ?, ?)`,
      [tenantId, operationId, kind, amount, balanceAfter, reason],
    );
  }
}

import type { EntityManager } from '@mikro-orm/postgresql';
import type { LedgerKind } from './credit-ledger-entry.entity.js';

/**
 * Every balance movement is one conditional UPDATE of the tenant row plus one ledger entry, in
 * the caller's transaction. The `credit_balance >= amount` condition, evaluated under the row
 * lock, is what keeps concurrent reservations from ever pushing a balance below zero.
 */
export class CreditsService {
  /** Takes `amount` from the balance; false when the balance cannot cover it (nothing written). */
  async reserve(
    em: EntityManager,
    tenantId: string,
    operationId: string,
    amount: number,
  ): Promise<boolean> {
    const rows = await em.execute<{ credit_balance: string }[]>(
      `update tenant set credit_balance = credit_balance - ? where id = ? and credit_balance >= ? returning credit_balance`,
      [amount, tenantId, amount],
    );
    if (rows.length === 0) return false;
    await this.record(em, tenantId, operationId, 'RESERVE', -amount, rows[0]!.credit_balance);
    return true;
  }

  /** Ends a reservation: the whole reservation is released, then what was delivered is charged. */
  async settle(
    em: EntityManager,
    tenantId: string,
    operationId: string,
    reserved: number,
    charged: number,
  ): Promise<void> {
    if (reserved > 0) await this.move(em, tenantId, operationId, 'RELEASE', reserved);
    if (charged > 0) await this.move(em, tenantId, operationId, 'CHARGE', -charged);
  }

  async topUp(em: EntityManager, tenantId: string, amount: number): Promise<string> {
    return this.move(em, tenantId, null, 'TOP_UP', amount);
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
  ): Promise<string> {
    const rows = await em.execute<{ credit_balance: string }[]>(
      `update tenant set credit_balance = credit_balance + ? where id = ? returning credit_balance`,
      [amount, tenantId],
    );
    const balance = rows[0]!.credit_balance;
    await this.record(em, tenantId, operationId, kind, amount, balance);
    return balance;
  }

  private async record(
    em: EntityManager,
    tenantId: string,
    operationId: string | null,
    kind: LedgerKind,
    amount: number,
    balanceAfter: string,
  ): Promise<void> {
    await em.execute(
      `insert into credit_ledger_entry (tenant_id, operation_id, kind, amount, balance_after) values (?, ?, ?, ?, ?)`,
      [tenantId, operationId, kind, amount, balanceAfter],
    );
  }
}

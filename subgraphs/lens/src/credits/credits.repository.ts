import type { EntityManager } from '@mikro-orm/postgresql';
import type { LedgerKind } from './credit-ledger-entry.entity.js';

/**
 * The statements of a tenant's credits: its balance on the tenant row and its append-only ledger
 * (credit_ledger_entry). The operation's movements are the SQL functions `lens_reserve_credits`
 * and `lens_settle_credits` of migration billed_path.
 */

/** Takes `amount` from the balance; false when the balance cannot cover it (nothing written). */
export async function reserveCredits(
  em: EntityManager,
  tenantId: string,
  operationId: string | null,
  amount: number,
): Promise<boolean> {
  const [row] = await em.execute<{ reserved: boolean }[]>(
    `select lens_reserve_credits(?, ?, ?) as reserved`,
    [tenantId, operationId, amount],
  );
  return row!.reserved;
}

/** Releases the whole reservation, then charges what was delivered. */
export async function settleCredits(
  em: EntityManager,
  tenantId: string,
  operationId: string | null,
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

export async function creditBalance(em: EntityManager, tenantId: string): Promise<string> {
  const rows = await em.execute<{ credit_balance: string }[]>(
    `select credit_balance from tenant where id = ?`,
    [tenantId],
  );
  return rows[0]?.credit_balance ?? '0';
}

/**
 * Adds `amount` (negative: takes) to the balance; returns the balance after. With `rearm` (a
 * top-up), a balance left at or above the low-balance threshold arms the alert again.
 */
export async function addToBalance(
  em: EntityManager,
  tenantId: string,
  amount: number,
  { rearm }: { rearm: boolean } = { rearm: false },
): Promise<string> {
  const rows = await em.execute<{ credit_balance: string }[]>(
    `update tenant set credit_balance = credit_balance + ?,
       low_balance_armed = coalesce(low_balance_armed
         or (?::boolean and credit_balance + ? >= alert_below), false)
     where id = ? returning credit_balance`,
    [amount, rearm, amount, tenantId],
  );
  return rows[0]!.credit_balance;
}

export async function appendLedgerEntry(
  em: EntityManager,
  entry: {
    tenantId: string;
    operationId: string | null;
    kind: LedgerKind;
    amount: number;
    balanceAfter: string;
    /** Why credits were added (a top-up's reason). */
    reason?: string | null;
  },
): Promise<void> {
  await em.execute(
    `insert into credit_ledger_entry (tenant_id, operation_id, kind, amount, balance_after, reason)
     values (?, ?, ?, ?, ?, ?)`,
    [
      entry.tenantId,
      entry.operationId,
      entry.kind,
      entry.amount,
      entry.balanceAfter,
      entry.reason ?? null,
    ],
  );
}

/** A ledger entry as stored. */
export interface LedgerRow {
  id: string;
  kind: LedgerKind;
  amount: string;
  balance_after: string;
  operation_id: string | null;
  reason: string | null;
  created_at: Date;
}

/** A tenant's ledger entries, newest first, before entry id `before` when given. */
export function ledgerRows(
  em: EntityManager,
  tenantId: string,
  before: string | null,
  limit: number,
): Promise<LedgerRow[]> {
  return em.execute<LedgerRow[]>(
    `select id, kind, amount, balance_after, operation_id, reason, created_at from credit_ledger_entry
       where tenant_id = ? and (?::bigint is null or id < ?::bigint)
       order by id desc limit ?`,
    [tenantId, before, before, limit],
  );
}

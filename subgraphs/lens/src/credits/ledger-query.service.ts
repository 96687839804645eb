import type { EntityManager } from '@mikro-orm/postgresql';
import { PlatformError } from '@campaign/schema';
import { decodeCursor, pageOf, pageSize, type Page } from '../operation/page-cursor.js';
import type { LedgerKind } from './credit-ledger-entry.entity.js';
import { ledgerRows } from './credits.repository.js';

export interface LedgerEntry {
  id: string;
  kind: LedgerKind;
  amount: number;
  balanceAfter: number;
  operationId: string | null;
  reason: string | null;
  createdAt: Date;
}

/** A tenant's ledger entries, newest first, for the console (read only: the ledger is append-only). */
export class LedgerQueryService {
  async forTenant(
    em: EntityManager,
    tenantId: string,
    options: { first?: number | null; after?: string | null },
  ): Promise<Page<LedgerEntry>> {
    const size = pageSize(options.first);
    const after = decodeCursor(options.after, 1);
    if (after && !/^\d{1,18}$/.test(after[0]!)) {
      throw new PlatformError('INVALID_CURSOR', 'after: not a cursor this list returned.');
    }
    const rows = await ledgerRows(em, tenantId, after?.[0] ?? null, size + 1);
    return pageOf(
      rows,
      size,
      (row) => ({
        id: String(row.id),
        kind: row.kind,
        amount: Number(row.amount),
        balanceAfter: Number(row.balance_after),
        operationId: row.operation_id,
        reason: row.reason,
        createdAt: new Date(row.created_at),
      }),
      (row) => [String(row.id)],
    );
  }
}

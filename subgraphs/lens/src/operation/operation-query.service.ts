import type { EntityManager } from '@mikro-orm/postgresql';
import { PlatformError } from '@campaign/schema';
import { Operation, type OperationStatus } from './operation.entity.js';
import {
  reconciliationQueueRows,
  shownDurably,
  tenantOperationRows,
  type OperationRow,
} from './operation.repository.js';
import { decodeCursor, pageOf, pageSize, type Page } from './page-cursor.js';

const TIMESTAMP = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}(\.\d{1,6})?[+-]\d{2}(:\d{2})?$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The (created_at, id) key of the last operation shown, from an `after` cursor. */
function keyAfter(after: string | null | undefined): string[] | null {
  const key = decodeCursor(after, 2);
  if (key && !(TIMESTAMP.test(key[0]!) && UUID.test(key[1]!))) {
    throw new PlatformError('INVALID_CURSOR', 'after: not a cursor this list returned.');
  }
  return key;
}

/** The console lists of operations: a tenant's own, and the admins' reconciliation queue. */
export class OperationQueryService {
  /** The tenant's operations, newest first, optionally of one status. */
  async forTenant(
    em: EntityManager,
    tenantId: string,
    options: { status?: OperationStatus | null; first?: number | null; after?: string | null },
  ): Promise<Page<Operation>> {
    const size = pageSize(options.first);
    const after = keyAfter(options.after);
    const rows = await tenantOperationRows(em, tenantId, options.status ?? null, after, size + 1);
    await shownDurably(
      em,
      rows.map((row) => String(row['status'])),
    );
    return this.page(em, rows, size);
  }

  /** Every tenant's operations in RECONCILIATION_REQUIRED, oldest first (admins). */
  async requiringReconciliation(
    em: EntityManager,
    options: { first?: number | null; after?: string | null },
  ): Promise<Page<Operation>> {
    const size = pageSize(options.first);
    const after = keyAfter(options.after);
    const rows = await reconciliationQueueRows(em, after, size + 1);
    return this.page(em, rows, size);
  }

  private page(em: EntityManager, rows: OperationRow[], size: number): Page<Operation> {
    return pageOf(
      rows,
      size,
      ({ created_key: _key, ...row }) => em.map(Operation, row),
      (row) => [row.created_key, row.id],
    );
  }
}

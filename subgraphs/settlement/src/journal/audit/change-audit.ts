import type { EntityManager } from '@mikro-orm/postgresql';
import type { Principal } from '../../kernel/principal.js';
import { actorColumns } from './audit.js';
import { ChangeAuditEntry } from './change-audit.entity.js';

export type AuditedEntity = 'AGENCY' | 'CAMPAIGN' | 'QUOTATION';

export interface ChangeRecord {
  entityType: AuditedEntity;
  entityId: string;
  action: string;
  actor: Principal;
  before?: Record<string, unknown> | null;
  after?: Record<string, unknown> | null;
  reason?: string | null;
}

/**
 * Appends one change entry inside the caller's transaction, so it exists exactly when the change
 * does. The table refuses updates and deletes; `created_at` is the database's clock.
 */
export async function appendChange(em: EntityManager, record: ChangeRecord): Promise<void> {
  await em.insert(ChangeAuditEntry, {
    entityType: record.entityType,
    entityId: record.entityId,
    action: record.action,
    ...actorColumns(record.actor),
    before: record.before ?? null,
    after: record.after ?? null,
    reason: record.reason ?? null,
  });
}

/**
 * The fields whose value differs between `before` and `after` (compared as the JSON they are
 * audited as), each side holding only those fields; null when nothing changed.
 */
export function changedFields(
  before: Record<string, unknown>,
  after: Record<string, unknown>,
): { before: Record<string, unknown>; after: Record<string, unknown> } | null {
  const was: Record<string, unknown> = {};
  const is: Record<string, unknown> = {};
  for (const key of Object.keys(after)) {
    if (JSON.stringify(before[key] ?? null) === JSON.stringify(after[key] ?? null)) continue;
    was[key] = before[key] ?? null;
    is[key] = after[key] ?? null;
  }
  return Object.keys(is).length ? { before: was, after: is } : null;
}

import DataLoader from 'dataloader';
import type { EntityManager } from '@mikro-orm/postgresql';
import { ChangeAuditEntry } from '../journal/audit/change-audit.entity.js';
import type { AuditedEntity } from '../journal/audit/change-audit.js';

/** Key of one audited row: `<entity type>:<id>`, e.g. `AGENCY:2`. */
export const auditKey = (entityType: AuditedEntity, id: string) => `${entityType}:${id}`;

/** Every change entry of the asked rows, oldest first, in one query per request. */
export function changeAuditLoader(em: EntityManager): DataLoader<string, ChangeAuditEntry[]> {
  return new DataLoader(async (keys) => {
    const pairs = keys.map((key) => {
      const at = key.indexOf(':');
      return { entityType: key.slice(0, at), entityId: key.slice(at + 1) };
    });
    const rows = await em.find(ChangeAuditEntry, { $or: pairs }, { orderBy: { id: 'asc' } });
    const groups = new Map<string, ChangeAuditEntry[]>();
    for (const row of rows) {
      const key = `${row.entityType}:${row.entityId}`;
      groups.set(key, [...(groups.get(key) ?? []), row]);
    }
    return keys.map((key) => groups.get(key) ?? []);
  });
}

import type { EntityManager } from '@mikro-orm/postgresql';
import type { Principal } from '../auth/principal.js';

export type AuditAction =
  | 'CREATED'
  | 'STATUS_CHANGED'
  | 'TYPE_CHANGED'
  | 'ISSUANCE_REQUESTED'
  | 'PARTNER_INVOICE_RECEIVED'
  | 'INVOICE_ISSUED';

export interface AuditRecord {
  settlementId: string;
  action: AuditAction;
  actor: Principal;
  fromStatus?: string | null;
  toStatus?: string | null;
  fromSettlementType?: string | null;
  toSettlementType?: string | null;
  reason?: string | null;
  details?: Record<string, unknown>;
}

/**
 * Appends one entry to the audit trail (DESIGN S8) inside the caller's transaction, so the
 * entry exists exactly when the change does. The table refuses updates and deletes.
 */
export async function appendAudit(em: EntityManager, record: AuditRecord): Promise<void> {
  await em.execute(
    `insert into settlement_audit (settlement_id, action, actor_subject, actor_role, from_status,
       to_status, from_settlement_type, to_settlement_type, reason, details)
     values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?::jsonb)`,
    [
      record.settlementId,
      record.action,
      record.actor.subject,
      record.actor.role,
      record.fromStatus ?? null,
      record.toStatus ?? null,
      record.fromSettlementType ?? null,
      record.toSettlementType ?? null,
      record.reason ?? null,
      JSON.stringify(record.details ?? {}),
    ],
  );
}

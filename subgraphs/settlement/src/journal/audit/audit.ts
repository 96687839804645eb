import type { EntityManager } from '@mikro-orm/postgresql';
import type { Principal } from '../../kernel/principal.js';
import { SettlementAuditEntry } from './settlement-audit.entity.js';

export type AuditAction =
  | 'CREATED'
  | 'STATUS_CHANGED'
  | 'TYPE_CHANGED'
  | 'ISSUANCE_REQUESTED'
  | 'PARTNER_INVOICE_RECEIVED'
  | 'INVOICE_ISSUED'
  /** Its campaign's price, commission rate or agency changed (updateCampaign, issue 12). */
  | 'CAMPAIGN_CHANGED'
  /** The provider's answers about a tax invoice (issue 11): issued, refused, URL (re-)issued. */
  | 'TAX_INVOICE_ISSUED'
  | 'TAX_INVOICE_FAILED'
  /** Issue 23 item 1: an issued tax invoice annulled by a cancellation tax invoice. */
  | 'TAX_INVOICE_CANCELLED'
  | 'REVERSE_ISSUANCE_UPDATED'
  /** A failed or cancelled reverse issuance started again (issue 23 item 3). */
  | 'REVERSE_ISSUANCE_RETRIED';

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
 * entry exists exactly when the change does. The table refuses updates and deletes; its
 * `created_at` is the database's clock.
 */
export async function appendAudit(em: EntityManager, record: AuditRecord): Promise<void> {
  await em.insert(SettlementAuditEntry, {
    settlementId: record.settlementId,
    action: record.action,
    actorSubject: record.actor.subject,
    actorRole: record.actor.role,
    fromStatus: record.fromStatus ?? null,
    toStatus: record.toStatus ?? null,
    fromSettlementType: record.fromSettlementType ?? null,
    toSettlementType: record.toSettlementType ?? null,
    reason: record.reason ?? null,
    details: record.details ?? {},
  });
}

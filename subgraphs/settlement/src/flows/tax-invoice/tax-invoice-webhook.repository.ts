import type { EntityManager } from '@mikro-orm/postgresql';
import { OutboxEvent } from '../../journal/outbox/outbox.js';
import type { TaxInvoiceWebhookEvent } from '../../outside/tax-invoice/webhook-event.js';

/**
 * The SQL of the provider integration (DESIGN.md 14: SQL in data-access modules): the webhook's
 * event ledger and the provider request rows the inline path resends.
 */

/**
 * Claims a webhook delivery by its event id inside the transaction that applies it; true for
 * the first delivery of the event. The primary key decides: a repeated delivery finds the id
 * committed and only counts itself; a concurrent one waits on the row until the first commits
 * (then counts itself) or rolls back (then it is the first).
 */
export async function claimWebhookEvent(
  tx: EntityManager,
  event: TaxInvoiceWebhookEvent,
): Promise<boolean> {
  const rows = await tx.execute<{ deliveries: number }[]>(
    `insert into tax_invoice_webhook_event (event_id, issuance_key, kind, status, applied, occurred_at)
     values (?, ?, ?, ?, false, ?)
     on conflict (event_id) do update
       set deliveries = tax_invoice_webhook_event.deliveries + 1, last_received_at = now()
     returning deliveries`,
    [event.eventId, event.issuanceKey, event.kind, event.status, event.occurredAt],
  );
  return Number(rows[0]?.deliveries) === 1;
}

/** Whether the claimed delivery changed anything (for people reading the ledger). */
export async function markWebhookEventApplied(
  tx: EntityManager,
  eventId: string,
  applied: boolean,
): Promise<void> {
  await tx.execute(`update tax_invoice_webhook_event set applied = ? where event_id = ?`, [
    applied,
    eventId,
  ]);
}

/**
 * The payload of the outbox row that asks for this reverse issuance. The inline path sends
 * exactly what the outbox worker sends: the provider refuses one key with two different
 * requests (ISSUANCE_KEY_REUSED), so both must be built from the same row.
 */
export async function reverseRequestPayload(
  em: EntityManager,
  settlementId: string,
  issuanceKey: string,
): Promise<Record<string, unknown> | null> {
  const rows = await em.execute<{ payload: Record<string, unknown> }[]>(
    `select payload from outbox
     where settlement_id = ? and event = ? and payload ->> 'issuanceKey' = ?
     order by id desc limit 1`,
    [settlementId, OutboxEvent.TAX_INVOICE_REVERSE_ISSUE_REQUEST, issuanceKey],
  );
  return rows[0]?.payload ?? null;
}

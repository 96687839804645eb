import type { EntityManager } from '@mikro-orm/postgresql';

/** The notification events of spec section 6, plus the tax-invoice provider requests. */
export const OutboxEvent = {
  INVOICE_ISSUED_ADVERTISER: 'INVOICE_ISSUED_ADVERTISER',
  PAYMENT_REQUEST_ADVERTISER: 'PAYMENT_REQUEST_ADVERTISER',
  PAYMENT_CONFIRMED_ADVERTISER: 'PAYMENT_CONFIRMED_ADVERTISER',
  DIRECT_SETTLEMENT_REQUEST: 'DIRECT_SETTLEMENT_REQUEST',
  ADVERTISER_PAID_PARTNER: 'ADVERTISER_PAID_PARTNER',
  INVOICE_REQUEST_PARTNER: 'INVOICE_REQUEST_PARTNER',
  PAYOUT_COMPLETED_PARTNER: 'PAYOUT_COMPLETED_PARTNER',
  SETTLEMENT_REQUESTED: 'SETTLEMENT_REQUESTED',
  SETTLEMENT_STATUS_CHANGED: 'SETTLEMENT_STATUS_CHANGED',
  TAX_INVOICE_ISSUE_REQUEST: 'TAX_INVOICE_ISSUE_REQUEST',
  TAX_INVOICE_REVERSE_ISSUE_REQUEST: 'TAX_INVOICE_REVERSE_ISSUE_REQUEST',
  TAX_INVOICE_REVERSE_CANCEL_REQUEST: 'TAX_INVOICE_REVERSE_CANCEL_REQUEST',
} as const;
export type OutboxEvent = (typeof OutboxEvent)[keyof typeof OutboxEvent];

export type OutboxChannel = 'EMAIL' | 'TEAM_CHAT' | 'TAX_INVOICE_PROVIDER';

/** Recipient of every team-chat message: the settlement team's channel (one thread each). */
export const TEAM_CHAT_RECIPIENT = 'settlement-team';
/** Recipient of every provider request. */
export const TAX_INVOICE_PROVIDER_RECIPIENT = 'tax-invoice-provider';

export const channelOf: Record<OutboxEvent, OutboxChannel> = {
  INVOICE_ISSUED_ADVERTISER: 'EMAIL',
  PAYMENT_REQUEST_ADVERTISER: 'EMAIL',
  PAYMENT_CONFIRMED_ADVERTISER: 'EMAIL',
  DIRECT_SETTLEMENT_REQUEST: 'EMAIL',
  ADVERTISER_PAID_PARTNER: 'EMAIL',
  INVOICE_REQUEST_PARTNER: 'EMAIL',
  PAYOUT_COMPLETED_PARTNER: 'EMAIL',
  SETTLEMENT_REQUESTED: 'TEAM_CHAT',
  SETTLEMENT_STATUS_CHANGED: 'TEAM_CHAT',
  TAX_INVOICE_ISSUE_REQUEST: 'TAX_INVOICE_PROVIDER',
  TAX_INVOICE_REVERSE_ISSUE_REQUEST: 'TAX_INVOICE_PROVIDER',
  TAX_INVOICE_REVERSE_CANCEL_REQUEST: 'TAX_INVOICE_PROVIDER',
};

export interface OutboxMessage {
  event: OutboxEvent;
  recipient: string;
  settlementId: string;
  payload: Record<string, unknown>;
  /**
   * Unique per event occurrence: a redelivery or a repeated write of one occurrence is one row
   * (DESIGN S10: no duplicates to the recipient for one event).
   */
  dedupeKey: string;
}

/**
 * Writes notifications into the outbox inside the caller's transaction (DESIGN S10): they exist
 * exactly when the change that causes them commits. Delivery (SMTP, team chat, provider) reads
 * PENDING rows later; a row whose dedupe key exists already is not written twice.
 */
export async function enqueue(
  em: EntityManager,
  messages: readonly OutboxMessage[],
): Promise<void> {
  for (const message of messages) {
    await em.execute(
      `insert into outbox (event, channel, recipient, payload, dedupe_key, settlement_id)
       values (?, ?, ?, ?::jsonb, ?, ?) on conflict (dedupe_key) do nothing`,
      [
        message.event,
        channelOf[message.event],
        message.recipient,
        JSON.stringify({ event: message.event, ...message.payload }),
        message.dedupeKey,
        message.settlementId,
      ],
    );
  }
}

import type { EntityManager } from '@mikro-orm/postgresql';
import { OutboxRepository } from '@campaign/platform';

/** The notification events of spec section 6, plus the tax-invoice provider requests. */
export const OutboxEvent = {
  INVOICE_ISSUED_ADVERTISER: 'INVOICE_ISSUED_ADVERTISER',
  PAYMENT_REQUEST_ADVERTISER: 'PAYMENT_REQUEST_ADVERTISER',
  PAYMENT_CONFIRMED_ADVERTISER: 'PAYMENT_CONFIRMED_ADVERTISER',
  DIRECT_SETTLEMENT_REQUEST: 'DIRECT_SETTLEMENT_REQUEST',
  ADVERTISER_PAID_PARTNER: 'ADVERTISER_PAID_PARTNER',
  INVOICE_REQUEST_PARTNER: 'INVOICE_REQUEST_PARTNER',
  PAYOUT_COMPLETED_PARTNER: 'PAYOUT_COMPLETED_PARTNER',
  /** DESIGN.md section 5: the approval e-mail of a reverse issuance (URL and its expiry). */
  REVERSE_ISSUANCE_APPROVAL_PARTNER: 'REVERSE_ISSUANCE_APPROVAL_PARTNER',
  SETTLEMENT_REQUESTED: 'SETTLEMENT_REQUESTED',
  SETTLEMENT_STATUS_CHANGED: 'SETTLEMENT_STATUS_CHANGED',
  /** DESIGN S10 "tax-invoice failure alert": the provider refused a forward or reverse issuance. */
  TAX_INVOICE_FAILED: 'TAX_INVOICE_FAILED',
  /** Issue 23 item 4: an ISSUED invoice past its due date (the sweep, flows/invoice-overdue.ts). */
  PAYMENT_OVERDUE_ADVERTISER: 'PAYMENT_OVERDUE_ADVERTISER',
  INVOICE_OVERDUE: 'INVOICE_OVERDUE',
  /** Issue 23 item 1: the tax invoice of a cancelled invoice annulled (e-mail and chat). */
  INVOICE_CANCELLED_ADVERTISER: 'INVOICE_CANCELLED_ADVERTISER',
  TAX_INVOICE_CANCELLED: 'TAX_INVOICE_CANCELLED',
  TAX_INVOICE_ISSUE_REQUEST: 'TAX_INVOICE_ISSUE_REQUEST',
  TAX_INVOICE_REVERSE_ISSUE_REQUEST: 'TAX_INVOICE_REVERSE_ISSUE_REQUEST',
  TAX_INVOICE_REVERSE_CANCEL_REQUEST: 'TAX_INVOICE_REVERSE_CANCEL_REQUEST',
  /** A forward request still pending when its invoice was cancelled: withdrawn at the provider. */
  TAX_INVOICE_FORWARD_WITHDRAW_REQUEST: 'TAX_INVOICE_FORWARD_WITHDRAW_REQUEST',
  /** An issued forward tax invoice of a cancelled invoice: annulled by a cancellation one. */
  TAX_INVOICE_CANCELLATION_REQUEST: 'TAX_INVOICE_CANCELLATION_REQUEST',
} as const;
export type OutboxEvent = (typeof OutboxEvent)[keyof typeof OutboxEvent];

export type OutboxChannel = 'EMAIL' | 'TEAM_CHAT' | 'TAX_INVOICE_PROVIDER';

/** Recipient of every team-chat message: the settlement team's channel (one thread each). */
export const TEAM_CHAT_RECIPIENT = 'settlement-team';
/** Recipient of every provider request. */
export const TAX_INVOICE_PROVIDER_RECIPIENT = 'tax-invoice-provider';

export const channelOf = {
  INVOICE_ISSUED_ADVERTISER: 'EMAIL',
  PAYMENT_REQUEST_ADVERTISER: 'EMAIL',
  PAYMENT_CONFIRMED_ADVERTISER: 'EMAIL',
  DIRECT_SETTLEMENT_REQUEST: 'EMAIL',
  ADVERTISER_PAID_PARTNER: 'EMAIL',
  INVOICE_REQUEST_PARTNER: 'EMAIL',
  PAYOUT_COMPLETED_PARTNER: 'EMAIL',
  REVERSE_ISSUANCE_APPROVAL_PARTNER: 'EMAIL',
  SETTLEMENT_REQUESTED: 'TEAM_CHAT',
  SETTLEMENT_STATUS_CHANGED: 'TEAM_CHAT',
  TAX_INVOICE_FAILED: 'TEAM_CHAT',
  PAYMENT_OVERDUE_ADVERTISER: 'EMAIL',
  INVOICE_OVERDUE: 'TEAM_CHAT',
  INVOICE_CANCELLED_ADVERTISER: 'EMAIL',
  TAX_INVOICE_CANCELLED: 'TEAM_CHAT',
  TAX_INVOICE_ISSUE_REQUEST: 'TAX_INVOICE_PROVIDER',
  TAX_INVOICE_REVERSE_ISSUE_REQUEST: 'TAX_INVOICE_PROVIDER',
  TAX_INVOICE_REVERSE_CANCEL_REQUEST: 'TAX_INVOICE_PROVIDER',
  TAX_INVOICE_FORWARD_WITHDRAW_REQUEST: 'TAX_INVOICE_PROVIDER',
  TAX_INVOICE_CANCELLATION_REQUEST: 'TAX_INVOICE_PROVIDER',
} as const satisfies Record<OutboxEvent, OutboxChannel>;

/** The events sent by e-mail: each needs a template (outbox/email/templates.ts). */
export type EmailEvent = {
  [E in OutboxEvent]: (typeof channelOf)[E] extends 'EMAIL' ? E : never;
}[OutboxEvent];

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

/** The graphile-worker task that delivers one outbox row (payload `{"id": "<row id>"}`). */
export const DELIVER_OUTBOX_TASK = 'settlement_deliver_outbox';

/**
 * The settlement database's outbox for the platform's delivery: a row's subject is its
 * settlement, a settlement's team-chat messages are one thread, delivered in order, and so are
 * one recipient's e-mails (issue 23 item 6: two steps milliseconds apart reach the advertiser in
 * the order they happened, across its settlements too).
 */
export const settlementOutbox = new OutboxRepository<OutboxChannel>({
  task: DELIVER_OUTBOX_TASK,
  subjectColumn: 'settlement_id',
  orderedChannels: ['TEAM_CHAT'],
  recipientOrderedChannels: ['EMAIL'],
});

/**
 * Writes notifications into the outbox inside the caller's transaction (DESIGN S10): they exist
 * exactly when the change that causes them commits, each with its delivery job; a dedupe key
 * written before is not written twice.
 */
export async function enqueue(
  em: EntityManager,
  messages: readonly OutboxMessage[],
): Promise<void> {
  for (const message of messages) {
    await settlementOutbox.enqueue((sql, params) => em.execute(sql, params), {
      event: message.event,
      channel: channelOf[message.event],
      recipient: message.recipient,
      subject: message.settlementId,
      payload: message.payload,
      dedupeKey: message.dedupeKey,
    });
  }
}

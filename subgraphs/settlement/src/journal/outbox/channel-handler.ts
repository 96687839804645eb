import type { ClaimedRow, DeliveryHandler } from '@campaign/platform';
import type { OutboxChannel, OutboxEvent } from './outbox.js';

/** One outbox row as the delivery worker hands it to the handler of its channel. */
export interface OutboxRow {
  id: string;
  event: OutboxEvent;
  channel: OutboxChannel;
  recipient: string;
  settlementId: string;
  payload: Record<string, unknown>;
  dedupeKey: string;
  /** Attempts made before this one. */
  attempts: number;
}

/**
 * Delivers one row to its outside system. Resolves when the system accepted it; throws to have
 * the worker retry later (an `OutsideSystemError` with `retryable: false` ends the row as DEAD).
 */
export type ChannelHandler = (row: OutboxRow) => Promise<void>;

/** Every channel has exactly one handler: e-mail, team chat, the tax-invoice provider. */
export type ChannelHandlers = Record<OutboxChannel, ChannelHandler>;

/** A row the platform's delivery claimed, in settlement's words (its subject is the settlement). */
export function settlementRow(row: ClaimedRow<OutboxChannel>): OutboxRow {
  const { subject, event, ...rest } = row;
  // The event column is only ever written from OutboxEvent (outbox.ts `enqueue`).
  return { ...rest, event: event as OutboxEvent, settlementId: subject };
}

/** The platform delivery's handlers: each channel's, given the row in settlement's words. */
export function deliveryHandlers(
  handlers: ChannelHandlers,
): Record<OutboxChannel, DeliveryHandler<OutboxChannel>> {
  return {
    EMAIL: (row) => handlers.EMAIL(settlementRow(row)),
    TEAM_CHAT: (row) => handlers.TEAM_CHAT(settlementRow(row)),
    TAX_INVOICE_PROVIDER: (row) => handlers.TAX_INVOICE_PROVIDER(settlementRow(row)),
  };
}

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

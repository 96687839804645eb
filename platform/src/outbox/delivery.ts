import { randomUUID } from 'node:crypto';
import type { Logger } from '../logger.js';
import { counter } from '../metrics.js';
import { inQueuedSpan } from '../trace-context.js';
import { DeliveredMemory } from './delivered-memory.js';
import type { RetryPolicy } from './outbox-config.js';
import type { ClaimedRow, OutboxRepository, SqlClient } from './outbox.repository.js';

/**
 * Delivers one row to its outside system. Resolves when the system accepted it; throws to have
 * the row retried later (an error with `retryable: false` ends the row as DEAD).
 */
export type DeliveryHandler<Channel extends string> = (row: ClaimedRow<Channel>) => Promise<void>;

/** Lends a connection for one short piece of work and takes it back (graphile's withPgClient). */
export type LendClient = <T>(work: (client: SqlClient) => Promise<T>) => Promise<T>;

export interface OutboxDeliveryOptions<Channel extends string> {
  repository: OutboxRepository<Channel>;
  handlers: Record<Channel, DeliveryHandler<Channel>>;
  policy: RetryPolicy;
  /** How long a claimed row is this process's alone (OUTBOX_LEASE_MS). */
  leaseMs: number;
  logger: Logger;
}

/** Delivery attempts by channel and outcome (issue 26): provider requests are one channel. */
const outcomes = counter(
  'outbox_deliveries_total',
  'Outbox delivery attempts, by channel and outcome (sent, retry, dead).',
  ['channel', 'outcome'],
);

/** A chat message waiting for an earlier one of its thread looks again this much later. */
const THREAD_ORDER_RECHECK_MS = 250;
const LAST_ERROR_MAX = 2000;

/**
 * Delivery of outbox rows without a transaction held open across the outside call: one short
 * transaction claims the row with a lease (this process's, `leaseMs` long), the outside system
 * is called with no connection held, and a second short transaction records SENT, PENDING again
 * with the next attempt's job (the back-off), or DEAD after `maxAttempts` or a final refusal.
 *
 * One row is sent by one process at a time however many replicas run: a second job finds it
 * leased and ends. When a process dies mid-send its lease runs out and the sweep gives the row a
 * new job: the message goes again with the same dedupe key (the same Message-ID, the same
 * issuance key). Failures of the outside system never fail the job; a database failure does,
 * and graphile-worker retries it.
 */
export class OutboxDelivery<Channel extends string = string> {
  /** This process's name on the leases it takes. */
  readonly owner = randomUUID();
  readonly delivered = new DeliveredMemory();
  /** Rows this process is sending now: a second job for one of them leaves it alone. */
  private readonly inFlight = new Set<string>();

  constructor(private readonly options: OutboxDeliveryOptions<Channel>) {}

  /** The whole of one delivery job. */
  async deliver(lend: LendClient, id: string): Promise<void> {
    if (this.inFlight.has(id)) return;
    this.inFlight.add(id);
    try {
      const row = await lend((client) => this.claim(client, id));
      // Sent, dead, leased to another process, not due (a stray job: the row's own job runs at
      // its time), or held back behind an earlier message of its thread.
      if (!row) return;
      const failure = await this.send(row);
      await lend((client) => this.record(client, row, failure));
      this.delivered.forget(row.dedupeKey);
    } finally {
      this.inFlight.delete(id);
    }
  }

  private async claim(client: SqlClient, id: string): Promise<ClaimedRow<Channel> | null> {
    const { repository, leaseMs } = this.options;
    return transaction(client, async () => {
      const row = await repository.lockClaimable(client, id, this.owner);
      if (!row) return null;
      // Messages of one thread (a subject's chat, a recipient's e-mail) are read in order: while
      // an earlier one is still PENDING (being sent, or waiting for its retry), this one is put
      // back until just after that one's next attempt, with no attempt counted.
      const earlier = await repository.earlierInThread(client, row);
      if (earlier) {
        await repository.holdBack(client, row.id, earlier, THREAD_ORDER_RECHECK_MS);
        return null;
      }
      await repository.lease(client, row.id, this.owner, leaseMs);
      return row;
    });
  }

  /** Calls the outside system; null when it accepted the message, else what went wrong. */
  private async send(row: ClaimedRow<Channel>): Promise<{ error: unknown } | null> {
    if (this.delivered.has(row.dedupeKey)) {
      // Accepted by the outside system earlier, but recording it failed (the database went
      // away): record it now instead of sending it twice.
      this.options.logger.info(
        { outboxId: row.id },
        'outbox message was delivered before; recording it',
      );
      return null;
    }
    try {
      // Under the trace of the request that wrote the row (issue 26); ids, never recipients.
      await inQueuedSpan(
        `outbox deliver ${row.event}`,
        row.traceContext,
        {
          'outbox.message.id': row.id,
          'outbox.channel': row.channel,
          'outbox.subject': row.subject,
        },
        () => this.options.handlers[row.channel](row),
      );
      this.delivered.remember(row.dedupeKey);
      return null;
    } catch (error) {
      return { error };
    }
  }

  private async record(
    client: SqlClient,
    row: ClaimedRow<Channel>,
    failure: { error: unknown } | null,
  ): Promise<void> {
    const { repository, policy, logger } = this.options;
    const attempts = row.attempts + 1;
    let recorded: boolean;
    if (failure === null) {
      outcomes.inc({ channel: row.channel, outcome: 'sent' });
      recorded = await repository.recordSent(client, row.id, this.owner);
    } else {
      const { text, final, retryAfterSeconds } = describeFailure(failure.error);
      const log = {
        outboxId: row.id,
        event: row.event,
        channel: row.channel,
        attempts,
        err: failure.error,
      };
      if (final || attempts >= policy.maxAttempts) {
        outcomes.inc({ channel: row.channel, outcome: 'dead' });
        recorded = await repository.recordDead(client, row.id, this.owner, text);
        if (recorded) logger.error(log, `outbox message is DEAD after ${attempts} attempt(s)`);
      } else {
        const delayMs = policy.delayMs(attempts, retryAfterSeconds);
        outcomes.inc({ channel: row.channel, outcome: 'retry' });
        recorded = await repository.recordRetry(client, row.id, this.owner, text, delayMs);
        if (recorded) logger.warn({ ...log, delayMs }, 'outbox message not delivered; will retry');
      }
    }
    if (!recorded) {
      // The lease ran out during the call and another process took the row over: its outcome
      // is the one that counts (the recipient sees one Message-ID either way).
      logger.warn(
        { outboxId: row.id },
        'outbox lease lost while sending; outcome left to its new holder',
      );
    }
  }
}

async function transaction<T>(client: SqlClient, work: () => Promise<T>): Promise<T> {
  await client.query('begin');
  try {
    const result = await work();
    await client.query('commit');
    return result;
  } catch (error) {
    await client.query('rollback').catch(() => undefined);
    throw error;
  }
}

/**
 * What a handler's error means for the row. Adapters throw errors that say whether a later
 * attempt can succeed (`retryable`, `retryAfterSeconds`); anything else (a bug, a placeholder) is
 * retried like an outage, so a fix deployed in time still delivers the message.
 */
export function describeFailure(error: unknown): {
  text: string;
  final: boolean;
  retryAfterSeconds: number | null;
} {
  const fields = (typeof error === 'object' && error !== null ? error : {}) as {
    name?: unknown;
    message?: unknown;
    retryable?: unknown;
    retryAfterSeconds?: unknown;
  };
  const name = typeof fields.name === 'string' ? fields.name : 'Error';
  const message = typeof fields.message === 'string' ? fields.message : String(error);
  return {
    text: `${name}: ${message}`.slice(0, LAST_ERROR_MAX),
    final: fields.retryable === false,
    retryAfterSeconds:
      typeof fields.retryAfterSeconds === 'number' && fields.retryAfterSeconds > 0
        ? fields.retryAfterSeconds
        : null,
  };
}

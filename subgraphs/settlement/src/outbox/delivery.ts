import { inQueuedSpan, type Logger } from '@campaign/platform';
import { deliveryOutcomes } from './outbox-metrics.js';
import type { ChannelHandlers, OutboxRow } from './channel-handler.js';
import type { RetryPolicy } from './outbox-config.js';
import {
  DELIVER_OUTBOX_TASK,
  DELIVERY_JOB_MAX_ATTEMPTS,
  outboxJobKey,
  type OutboxChannel,
  type OutboxEvent,
} from './outbox.js';

/** The part of a `pg` client the delivery uses (graphile-worker's `withPgClient` gives one). */
export interface SqlClient {
  query(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
}

export interface DeliveryDeps {
  handlers: ChannelHandlers;
  policy: RetryPolicy;
  delivered: DeliveredMemory;
  logger: Logger;
}

interface ClaimedRow {
  id: string;
  event: OutboxEvent;
  channel: OutboxChannel;
  recipient: string;
  settlement_id: string;
  payload: Record<string, unknown>;
  dedupe_key: string;
  attempts: number;
  trace_context: string | null;
}

const LAST_ERROR_MAX = 2000;

/**
 * Delivers one outbox row: the whole of the `settlement_deliver_outbox` job.
 *
 * The row is claimed with `for update skip locked` in a transaction held while its outside system
 * is called, so one row is sent by one worker at a time however many replicas run (a second job
 * for it finds nothing and ends), and a process that dies mid-send releases the row with its
 * connection. The outcome is written in the same transaction: SENT, or PENDING again with the
 * next attempt's job (`run_at` = the back-off) under the row's job key, or DEAD once
 * `maxAttempts` attempts failed or the system refused the message for good. Failures of the
 * outside system never fail the job; a database failure does, and graphile-worker retries it.
 */
export async function deliverOutboxRow(
  client: SqlClient,
  id: string,
  deps: DeliveryDeps,
): Promise<void> {
  await client.query('begin');
  try {
    const { rows } = await client.query(
      `select id::text as id, event, channel, recipient, coalesce(settlement_id, '') as settlement_id,
              payload, dedupe_key, attempts, trace_context
         from outbox
        where id = $1 and status = 'PENDING' and available_at <= now()
        for update skip locked`,
      [id],
    );
    const row = rows[0] as ClaimedRow | undefined;
    // Sent, dead, being sent by another worker, or not due (a stray job: the row's own job
    // runs at its time).
    if (row) await attempt(client, row, deps);
    await client.query('commit');
    if (row) deps.delivered.forget(row.dedupe_key);
  } catch (error) {
    await client.query('rollback').catch(() => undefined);
    throw error;
  }
}

/** A chat message waiting for an earlier one of its thread looks again this much later. */
const THREAD_ORDER_RECHECK_MS = 250;

/**
 * Team-chat messages of one settlement are one thread, read in order: the request, then each
 * status change. When an earlier message of the thread is still PENDING (being sent, or waiting
 * for its retry), this one is put back until just after that one's next attempt, with no attempt
 * counted. E-mails and provider requests go to different parties and are not held back.
 */
async function waitForThread(client: SqlClient, row: ClaimedRow): Promise<boolean> {
  if (row.channel !== 'TEAM_CHAT' || !row.settlement_id) return false;
  const { rows } = await client.query(
    `select greatest(max(available_at), now()) + $3 * interval '1 millisecond' as at
       from outbox
      where settlement_id = $1 and channel = 'TEAM_CHAT' and status = 'PENDING' and id < $2
     having count(*) > 0`,
    [row.settlement_id, row.id, THREAD_ORDER_RECHECK_MS],
  );
  const at = (rows[0] as { at: Date } | undefined)?.at;
  if (!at) return false;
  await client.query(`update outbox set available_at = $2 where id = $1`, [row.id, at]);
  await client.query(
    `select graphile_worker.add_job($1, json_build_object('id', $2::text), run_at => $3,
       job_key => $4, max_attempts => $5)`,
    [DELIVER_OUTBOX_TASK, row.id, at, outboxJobKey(row.id), DELIVERY_JOB_MAX_ATTEMPTS],
  );
  return true;
}

async function attempt(client: SqlClient, row: ClaimedRow, deps: DeliveryDeps): Promise<void> {
  if (await waitForThread(client, row)) return;
  const attempts = row.attempts + 1;
  let failure: unknown = null;
  if (deps.delivered.has(row.dedupe_key)) {
    // Accepted by the outside system earlier, but recording it failed (the database went away):
    // record it now instead of sending it twice.
    deps.logger.info({ outboxId: row.id }, 'outbox message was delivered before; recording it');
  } else {
    try {
      // Under the trace of the request that wrote the row (issue 26); ids, never recipients.
      await inQueuedSpan(
        `outbox deliver ${row.event}`,
        row.trace_context,
        {
          'outbox.message.id': row.id,
          'outbox.channel': row.channel,
          'settlement.id': row.settlement_id,
        },
        () => deps.handlers[row.channel](toOutboxRow(row)),
      );
      deps.delivered.remember(row.dedupe_key);
    } catch (error) {
      failure = error;
    }
  }
  if (failure === null) {
    deliveryOutcomes.inc({ channel: row.channel, outcome: 'sent' });
    await client.query(
      `update outbox set status = 'SENT', sent_at = now(), last_attempt_at = now(), attempts = $2
        where id = $1`,
      [row.id, attempts],
    );
    return;
  }
  const { text, final, retryAfterSeconds } = describeFailure(failure);
  const log = { outboxId: row.id, event: row.event, channel: row.channel, attempts, err: failure };
  if (final || attempts >= deps.policy.maxAttempts) {
    deliveryOutcomes.inc({ channel: row.channel, outcome: 'dead' });
    await client.query(
      `update outbox set status = 'DEAD', dead_at = now(), last_attempt_at = now(),
              attempts = $2, last_error = $3
        where id = $1`,
      [row.id, attempts, text],
    );
    deps.logger.error(log, `outbox message is DEAD after ${attempts} attempt(s)`);
    return;
  }
  deliveryOutcomes.inc({ channel: row.channel, outcome: 'retry' });
  const delayMs = deps.policy.delayMs(attempts, retryAfterSeconds);
  await client.query(
    `update outbox set last_attempt_at = now(), attempts = $2, last_error = $3,
            available_at = now() + $4 * interval '1 millisecond'
      where id = $1`,
    [row.id, attempts, text, delayMs],
  );
  // The next attempt's job, committed with the row's new state (this running job gives up its
  // key to it: graphile-worker lets a locked job keep running and adds a new one).
  await client.query(
    `select graphile_worker.add_job($1, json_build_object('id', $2::text),
       run_at => now() + $3 * interval '1 millisecond', job_key => $4, max_attempts => $5)`,
    [DELIVER_OUTBOX_TASK, row.id, delayMs, outboxJobKey(row.id), DELIVERY_JOB_MAX_ATTEMPTS],
  );
  deps.logger.warn({ ...log, delayMs }, 'outbox message not delivered; will retry');
}

function toOutboxRow(row: ClaimedRow): OutboxRow {
  return {
    id: row.id,
    event: row.event,
    channel: row.channel,
    recipient: row.recipient,
    settlementId: row.settlement_id,
    payload: row.payload,
    dedupeKey: row.dedupe_key,
    attempts: row.attempts,
  };
}

/**
 * What a handler's error means for the row. Adapters throw `OutsideSystemError`s that say
 * whether a later attempt can succeed; anything else (a bug, a placeholder) is retried like an
 * outage, so a fix deployed in time still delivers the message.
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

/**
 * Messages this process handed to their outside system whose SENT was not recorded yet. When the
 * database fails between the two, the next attempt in this process records the delivery instead
 * of sending again: the common case of a lost acknowledgement. Bounded and short-lived: it only
 * has to outlive a database outage, and another replica does not share it (docs/settlement.md).
 */
export class DeliveredMemory {
  private readonly entries = new Map<string, number>();

  constructor(
    private readonly ttlMs = 6 * 60 * 60 * 1000,
    private readonly limit = 10_000,
  ) {}

  remember(dedupeKey: string): void {
    this.entries.delete(dedupeKey);
    this.entries.set(dedupeKey, Date.now() + this.ttlMs);
    // Oldest first (Map keeps insertion order).
    for (const key of this.entries.keys()) {
      if (this.entries.size <= this.limit) break;
      this.entries.delete(key);
    }
  }

  has(dedupeKey: string): boolean {
    const until = this.entries.get(dedupeKey);
    if (until === undefined) return false;
    if (until > Date.now()) return true;
    this.entries.delete(dedupeKey);
    return false;
  }

  forget(dedupeKey: string): void {
    this.entries.delete(dedupeKey);
  }
}

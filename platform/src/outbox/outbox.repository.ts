/**
 * Every statement of the platform's outbox (one `outbox` table in each service's database, the
 * same columns in each; `outbox-table.ts` has its definition). Two kinds of callers: the
 * service's own transactions (MikroORM `em.execute`, `?` placeholders) write messages and
 * re-queue them; the delivery (a `pg` client lent by graphile-worker, `$n` placeholders) claims
 * and records in short transactions of its own.
 */

import { currentTraceparent } from '../trace-context.js';
import {
  DELIVERY_JOB_MAX_ATTEMPTS,
  SQL_IDENTIFIER,
  OUTBOX_JOB_KEY_PREFIX,
  outboxJobKey,
  enqueueStatement,
} from './outbox-enqueue.repository.js';

/** The part of a `pg` client the delivery uses (graphile-worker's `withPgClient` lends one). */
export interface SqlClient {
  query(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
}

/** A service transaction's statement runner (MikroORM's `em.execute`). */
export type Execute = (sql: string, params: unknown[]) => Promise<unknown>;

/** Which outbox this is: the task that delivers it and the column naming a row's subject. */
export interface OutboxDefinition<Channel extends string = string> {
  /** graphile-worker task that delivers one row (payload `{"id": "<row id>"}`). */
  task: string;
  /** Column with the row's subject (a settlement id, a tenant id), given to the handlers. */
  subjectColumn: string;
  /** Channels whose messages of one subject are delivered in order (a chat thread). */
  orderedChannels: readonly Channel[];
  /**
   * Channels whose messages to one recipient are delivered in order, whatever their subject (one
   * person's e-mails, written by steps milliseconds apart, arrive in the order of the steps).
   */
  recipientOrderedChannels?: readonly Channel[];
}

/** A row claimed for sending. */
export interface ClaimedRow<Channel extends string = string> {
  id: string;
  event: string;
  channel: Channel;
  recipient: string;
  subject: string;
  payload: Record<string, unknown>;
  dedupeKey: string;
  /** Attempts made before this one. */
  attempts: number;
  /** The `traceparent` of the request that wrote the row (issue 26); null when not traced. */
  traceContext: string | null;
}

export interface NewOutboxMessage<Channel extends string = string> {
  event: string;
  channel: Channel;
  recipient: string;
  subject: string | null;
  payload: Record<string, unknown>;
  dedupeKey: string;
}

export class OutboxRepository<Channel extends string = string> {
  private readonly subject: string;

  constructor(readonly definition: OutboxDefinition<Channel>) {
    if (!SQL_IDENTIFIER.test(definition.subjectColumn)) {
      throw new Error(`not a column name: ${definition.subjectColumn}`);
    }
    this.subject = definition.subjectColumn;
  }

  /**
   * Writes one message inside the caller's transaction, with its delivery job in the same
   * statement: the job exists exactly when the row does, and the commit wakes a worker
   * (graphile-worker's NOTIFY is sent at commit). A dedupe key written before is not written
   * twice and gets no second job.
   */
  async enqueue(execute: Execute, message: NewOutboxMessage<Channel>): Promise<void> {
    await execute(
      enqueueStatement(this.subject, {
        event: '?',
        channel: '?',
        recipient: '?',
        payload: '?::jsonb',
        dedupeKey: '?',
        subject: '?',
        traceContext: '?',
        task: '?',
        jobKeyPrefix: '?',
        maxAttempts: '?',
      }),
      [
        message.event,
        message.channel,
        message.recipient,
        JSON.stringify({ event: message.event, ...message.payload }),
        message.dedupeKey,
        message.subject,
        // The delivery shows in the trace of the request that caused it (issue 26).
        currentTraceparent(),
        this.definition.task,
        OUTBOX_JOB_KEY_PREFIX,
        DELIVERY_JOB_MAX_ATTEMPTS,
      ],
    );
  }

  /**
   * The row when it is PENDING, due, and not leased to another process (a lease of `owner`'s
   * own is its to take again), locked for the claiming transaction; rows another transaction
   * is claiming right now are skipped.
   */
  async lockClaimable(
    client: SqlClient,
    id: string,
    owner: string,
  ): Promise<ClaimedRow<Channel> | null> {
    const { rows } = await client.query(
      `select id::text as id, event, channel, recipient, coalesce(${this.subject}::text, '') as subject,
              payload, dedupe_key as "dedupeKey", attempts, trace_context as "traceContext"
         from outbox
        where id = $1 and status = 'PENDING' and available_at <= now()
          and (lease_until is null or lease_until <= now() or lease_owner = $2)
        for update skip locked`,
      [id, owner],
    );
    return (rows[0] as ClaimedRow<Channel> | undefined) ?? null;
  }

  /**
   * When an earlier message of the row's ordered thread is still PENDING, its due time. The
   * thread is the row's subject or, for a channel ordered by recipient, its recipient; null when
   * the row's channel is not ordered.
   */
  async earlierInThread(client: SqlClient, row: ClaimedRow<Channel>): Promise<Date | null> {
    const { orderedChannels, recipientOrderedChannels = [] } = this.definition;
    const [column, value] = orderedChannels.includes(row.channel)
      ? [`${this.subject}::text`, row.subject]
      : recipientOrderedChannels.includes(row.channel)
        ? ['recipient', row.recipient]
        : [null, null];
    if (column === null) return null;
    const { rows } = await client.query(
      `select max(available_at) as at from outbox
        where ${column} = $1 and channel = $2 and status = 'PENDING' and id < $3
       having count(*) > 0`,
      [value, row.channel, row.id],
    );
    return (rows[0] as { at: Date } | undefined)?.at ?? null;
  }

  /** Puts a row back until `afterMs` past `notBefore` (or now), with its job then. */
  async holdBack(client: SqlClient, id: string, notBefore: Date, afterMs: number): Promise<void> {
    await client.query(
      `with held as (
         update outbox set available_at = greatest($2::timestamptz, now()) + $3 * interval '1 millisecond'
          where id = $1 returning available_at)
       select graphile_worker.add_job($4, json_build_object('id', $1::text), run_at => held.available_at,
         job_key => $5, max_attempts => $6) from held`,
      [id, notBefore, afterMs, this.definition.task, outboxJobKey(id), DELIVERY_JOB_MAX_ATTEMPTS],
    );
  }

  /** Reserves the row for `owner` for `leaseMs`: no other process sends it meanwhile. */
  async lease(client: SqlClient, id: string, owner: string, leaseMs: number): Promise<void> {
    await client.query(
      `update outbox set lease_owner = $2, lease_until = now() + $3 * interval '1 millisecond'
        where id = $1`,
      [id, owner, leaseMs],
    );
  }

  /**
   * Records an accepted message. Each `record*` applies only while `owner` still holds the row
   * (its lease not taken over after expiry), and answers whether it did.
   */
  async recordSent(client: SqlClient, id: string, owner: string): Promise<boolean> {
    const { rows } = await client.query(
      `update outbox set status = 'SENT', sent_at = now(), last_attempt_at = now(),
              attempts = attempts + 1, lease_owner = null, lease_until = null
        where id = $1 and lease_owner = $2 and status = 'PENDING' returning id`,
      [id, owner],
    );
    return rows.length > 0;
  }

  /** A failed attempt for good: DEAD with its error. */
  async recordDead(client: SqlClient, id: string, owner: string, error: string): Promise<boolean> {
    const { rows } = await client.query(
      `update outbox set status = 'DEAD', dead_at = now(), last_attempt_at = now(),
              attempts = attempts + 1, last_error = $3, lease_owner = null, lease_until = null
        where id = $1 and lease_owner = $2 and status = 'PENDING' returning id`,
      [id, owner, error],
    );
    return rows.length > 0;
  }

  /**
   * A failed attempt to try again after `delayMs`, with the next attempt's job in the same
   * statement (the running job gives up its key to it: graphile-worker lets a locked job keep
   * running and adds a new one).
   */
  async recordRetry(
    client: SqlClient,
    id: string,
    owner: string,
    error: string,
    delayMs: number,
  ): Promise<boolean> {
    const { rows } = await client.query(
      `with retried as (
         update outbox set last_attempt_at = now(), attempts = attempts + 1, last_error = $3,
                available_at = now() + $4 * interval '1 millisecond',
                lease_owner = null, lease_until = null
          where id = $1 and lease_owner = $2 and status = 'PENDING' returning available_at)
       select graphile_worker.add_job($5, json_build_object('id', $1::text),
         run_at => retried.available_at, job_key => $6, max_attempts => $7) from retried`,
      [
        id,
        owner,
        error,
        delayMs,
        this.definition.task,
        outboxJobKey(id),
        DELIVERY_JOB_MAX_ATTEMPTS,
      ],
    );
    return rows.length > 0;
  }

  /**
   * Gives a fresh job to PENDING rows due for longer than `graceMs` and not leased (their job
   * was lost, or their sender died and its lease ran out), oldest first, at most `limit`.
   */
  async requeueOverdue(execute: Execute, graceMs: number, limit: number): Promise<string[]> {
    const rows = (await execute(
      `select due.id, graphile_worker.add_job(?, json_build_object('id', due.id),
         job_key => ? || due.id, max_attempts => ?) is not null as queued
       from (select id::text as id from outbox
              where status = 'PENDING' and available_at < now() - ? * interval '1 millisecond'
                and (lease_until is null or lease_until < now())
              order by available_at limit ? for update skip locked) due`,
      [this.definition.task, OUTBOX_JOB_KEY_PREFIX, DELIVERY_JOB_MAX_ATTEMPTS, graceMs, limit],
    )) as { id: string }[];
    return rows.map((r) => r.id);
  }

  /** A DEAD row's new round: PENDING, attempts from 0, due now, with its job. */
  async requeueDead(execute: Execute, id: string): Promise<void> {
    await execute(
      `with revived as (
         update outbox set status = 'PENDING', attempts = 0, available_at = now(), dead_at = null,
                lease_owner = null, lease_until = null
          where id = ? and status = 'DEAD' returning id::text as id)
       select graphile_worker.add_job(?, json_build_object('id', id), job_key => ? || id,
         max_attempts => ?) from revived`,
      [id, this.definition.task, OUTBOX_JOB_KEY_PREFIX, DELIVERY_JOB_MAX_ATTEMPTS],
    );
  }
}

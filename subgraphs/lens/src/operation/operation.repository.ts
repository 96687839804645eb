import type { EntityManager } from '@mikro-orm/postgresql';
import { runPrepared, type PreparedSqlStore, type PreparedStatement } from '@campaign/platform';
import { ENVELOPE_COLUMNS, RECORD_COLUMNS } from './operation-record.js';

/**
 * The operation table's statements. The engine's hot-path statements, sent as node-postgres named statements (`runPrepared`). The
 * money rules live in the SQL functions of migration billed_path; each call here is one statement
 * in its own transaction: one commit.
 */

/**
 * The tenant's rate-limit count (unless `$14` is false: counted already), idempotency probe,
 * reservation, RESERVE entry, the inline attempt's lease and the credential's last-used time
 * (one commit; without a WAL flush when it leases the attempt to this process, whose answer
 * follows the settlement's flush or `FLUSH_WAL`: migrations one_commit and tenant_rate_window).
 * A refusal (429, 402) comes back as `refusal` with the operation's columns null.
 */
export const START: PreparedStatement = {
  name: 'lens_start_operation',
  text: `select s.refusal, s.rate_hits, s.rate_reset, s.rate_limit,
           ${RECORD_COLUMNS.split(', ')
             .map((column) => `(s.op).${column}`)
             .join(', ')}
         from lens_start_operation($1, $2, $3, $4, $5::jsonb, $6, $7, $8, $9, $10, $11, $12, $13, $14) s`,
};

/** What the start adds to the operation's columns: a refusal, and the count's window. */
export interface StartAnswer {
  refusal: 'RATE_LIMITED' | 'INSUFFICIENT_CREDITS' | null;
  rate_hits: number | null;
  rate_reset: number | null;
  rate_limit: number | null;
}

/** One request counted in the tenant's window (a capped credential's, before its cap check). */
export const COUNT_REQUEST: PreparedStatement = {
  name: 'lens_count_request',
  text: `select rate_hits, rate_reset, rate_limit from lens_count_request($1)`,
};

/** Terminal status, result, RELEASE and CHARGE entries and the balance (one commit). */
export const SETTLE: PreparedStatement = {
  name: 'lens_settle_operation',
  text: `select * from lens_settle_operation($1, $2, $3::jsonb, $4::jsonb, $5::timestamptz, $6)`,
};

/** An attempt (a job's, an admin's) takes the lease of an operation still in `$4`. */
/**
 * Flushes the WAL written so far to disk (PostgreSQL 17's `flush` of a non-transactional logical
 * message: a few bytes of WAL, no transaction id, no commit). Sent before an answer that shows a
 * RUNNING operation, whose start may have committed without a flush (migration one_commit): the
 * answer then names an operation that a database crash cannot take back.
 */
export const FLUSH_WAL: PreparedStatement = {
  name: 'lens_flush_wal',
  text: `select pg_logical_emit_message(false, 'lens', 'durable', true)`,
};

/**
 * Resolves once operations of these statuses can be shown: a RUNNING one may come from a start
 * that committed without a WAL flush (an inline start, migration one_commit), so the WAL is
 * flushed first; any other status was written by a synchronous commit, whose flush took the
 * start's commit record with it.
 */
export async function shownDurably(
  db: PreparedSqlStore,
  statuses: readonly string[],
): Promise<void> {
  if (statuses.includes('RUNNING')) await runPrepared(db, FLUSH_WAL, []);
}

export const CLAIM: PreparedStatement = {
  name: 'lens_claim_operation',
  text: `update operation set attempt_owner = $1, attempts = attempts + 1,
           lease_expires_at = now() + $2 * interval '1 millisecond', updated_at = now()
         where id = $3 and status = $4
         returning *`,
};

export const RENEW: PreparedStatement = {
  name: 'lens_renew_lease',
  text: `update operation set lease_expires_at = now() + $1 * interval '1 millisecond'
         where id = $2 and attempt_owner = $3 and status in ('RUNNING', 'RECONCILIATION_REQUIRED')`,
};

export const OPERATION_BY_ID: PreparedStatement = {
  name: 'lens_operation_by_id',
  text: `select ${RECORD_COLUMNS} from operation where id = $1`,
};

/**
 * The status look-up: another tenant's operation is not found, like an unknown one. Only the
 * envelope's columns (issue 27: not the input, the lease or the trace context).
 */
export const OPERATION_OF_TENANT: PreparedStatement = {
  name: 'lens_operation_of_tenant',
  text: `select ${ENVELOPE_COLUMNS} from operation where id = $1 and tenant_id = $2`,
};

/** An operation row with its (created_at, id) paging key as text. */
export type OperationRow = Record<string, unknown> & { id: string; created_key: string };

/** A tenant's operations, newest first, optionally of one status, after a (created_at, id) key. */
export function tenantOperationRows(
  em: EntityManager,
  tenantId: string,
  status: string | null,
  after: string[] | null,
  limit: number,
): Promise<OperationRow[]> {
  return em.execute<OperationRow[]>(
    `select *, created_at::text as created_key from operation
       where tenant_id = ? and (?::text is null or status = ?)
         and (?::timestamptz is null or (created_at, id) < (?::timestamptz, ?::uuid))
       order by created_at desc, id desc limit ?`,
    [tenantId, status, status, after?.[0] ?? null, after?.[0] ?? null, after?.[1] ?? null, limit],
  );
}

/**
 * Every tenant's operations in RECONCILIATION_REQUIRED, oldest first, after a key: read through
 * the work list (`operation_open`, migration operation_open: one row per open operation, written
 * by the start and moved by the guard), so status is in none of operation's indexes and a
 * settlement is HOT.
 */
export function reconciliationQueueRows(
  em: EntityManager,
  after: string[] | null,
  limit: number,
): Promise<OperationRow[]> {
  return em.execute<OperationRow[]>(
    `select o.*, o.created_at::text as created_key
       from operation_open w join operation o on o.id = w.operation_id
       where w.reconcile
         and (?::timestamptz is null or (w.created_at, w.operation_id) > (?::timestamptz, ?::uuid))
       order by w.created_at, w.operation_id limit ?`,
    [after?.[0] ?? null, after?.[0] ?? null, after?.[1] ?? null, limit],
  );
}

/**
 * Up to `batch` RUNNING operations whose lease expired move to RECONCILIATION_REQUIRED, each with
 * its reconcile job queued in the same statement (`skip locked`: replicas take different rows).
 * The candidates are the work list's RUNNING rows (the calls in flight), not every operation.
 */
export function expireLeases(
  em: EntityManager,
  batch: number,
  task: string,
  maxAttempts: number,
): Promise<{ id: string }[]> {
  return em.execute<{ id: string }[]>(
    `with expired as (
         select o.id from operation_open w join operation o on o.id = w.operation_id
         where not w.reconcile and o.status = 'RUNNING' and o.lease_expires_at < now()
         order by o.lease_expires_at limit ? for update of o skip locked
       ), moved as (
         update operation o set status = 'RECONCILIATION_REQUIRED', attempt_owner = null,
           updated_at = now()
         from expired where o.id = expired.id returning o.id
       )
       select moved.id, graphile_worker.add_job(?, json_build_object('operationId', moved.id),
         job_key => 'reconcile:' || moved.id, max_attempts => ?) is not null as queued
       from moved`,
    [batch, task, maxAttempts],
  );
}

/**
 * The credits a credential has spent: what its settled operations charged plus what its running
 * ones hold reserved (a credits cap counts both, so concurrent calls cannot overshoot by much).
 */
export const CREDENTIAL_SPENT: PreparedStatement = {
  name: 'lens_credential_spent',
  text: `select coalesce(sum(case when status in ('RUNNING', 'RECONCILIATION_REQUIRED')
           then credits_reserved else credits_charged end), 0)::bigint::text as spent
         from operation where credential_id = $1`,
};

/** Metrics (issue 26): the work list's partial index of RECONCILIATION_REQUIRED rows: only those. */
export const RECONCILIATION_BACKLOG: PreparedStatement = {
  name: 'metrics_reconciliation_backlog',
  text: `select count(*)::int as count from operation_open where reconcile`,
};

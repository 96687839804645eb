import { PlatformError } from '@campaign/schema';
import { runPrepared, type PreparedSqlStore, type PreparedStatement } from './prepared-sql.js';

/**
 * The platform's one rate limiter (DESIGN.md L8 per API key, S12 per client address): a fixed
 * window per bucket, counted in PostgreSQL so that every replica shares the count. The window
 * starts with the bucket's first request in it and holds `limit` requests; the next one is 429
 * RATE_LIMITED with Retry-After and the IETF draft RateLimit headers as extensions, which the
 * REST adapter turns into headers.
 *
 * Each service keeps its counters in its own database, in a table its own migrations create:
 *
 *   create table rate_limit_window (
 *     bucket text primary key,
 *     window_start timestamptz not null,
 *     hits integer not null check (hits >= 0));
 *
 * Buckets are the caller's names (`api_key:<id>`, `business_verify:<address>`): one table serves
 * every limit of a service. A row whose window has ended is reset in place by the bucket's next
 * request, so the table holds one small row per bucket ever seen.
 *
 * The upsert commits asynchronously (`synchronous_commit = off` for its own transaction only): it
 * costs no WAL flush (fsync), so a counter is not the bottleneck of every request, and it stays
 * in the shared table, so every replica still sees the same count at once. A database crash can
 * lose the last few hundred milliseconds of counts (PostgreSQL's WAL writer flushes every
 * `wal_writer_delay`, 200 ms): a window may then admit that many requests more, never fewer.
 */

export interface RateLimitPolicy {
  /** Requests allowed per window. */
  limit: number;
  windowSeconds: number;
}

export interface RateLimitState {
  limit: number;
  windowSeconds: number;
  remaining: number;
  /** Seconds until the window resets (at least 1). */
  reset: number;
}

/** The IETF draft headers (draft-ietf-httpapi-ratelimit-headers) for one state. */
export function rateLimitHeaders(state: RateLimitState) {
  return {
    rateLimitPolicy: `${state.limit};w=${state.windowSeconds}`,
    rateLimit: `limit=${state.limit}, remaining=${state.remaining}, reset=${state.reset}`,
  };
}

/** "minute", "15 minutes", "hour": how the refusal names the window. */
export function describeWindow(seconds: number): string {
  const [amount, unit] =
    seconds % 3600 === 0
      ? [seconds / 3600, 'hour']
      : seconds % 60 === 0
        ? [seconds / 60, 'minute']
        : [seconds, 'second'];
  return amount === 1 ? unit : `${amount} ${unit}s`;
}

/** What a limiter needs of a database handle: MikroORM's EntityManager (or a fork) has it. */
export type RateLimitStore = PreparedSqlStore;

export interface RateLimiterOptions {
  /** The counters' table; `rate_limit_window` unless a service names another. */
  table?: string;
  /** Ends the refusal's first sentence: "More than 30 requests per 15 minutes <subject>". */
  subject: string;
}

const TABLE_NAME = /^[a-z_][a-z0-9_]*$/;

export class PostgresRateLimiter {
  private readonly upsert: PreparedStatement;

  constructor(private readonly options: RateLimiterOptions) {
    const table = options.table ?? 'rate_limit_window';
    // The name is interpolated into SQL: only a plain identifier is accepted, never input.
    if (!TABLE_NAME.test(table)) throw new Error(`bad rate limit table name ${table}`);
    // `set_config(..., true)` lasts until the end of this statement's own (implicit)
    // transaction, so it makes only this commit asynchronous.
    const next = fixedWindowSql('w.window_start', 'w.hits', '$2');
    this.upsert = {
      name: `rate_limit_consume_${table}`,
      text: `insert into ${table} as w (bucket, window_start, hits)
         select $1, now(), 1 from (select set_config('synchronous_commit', 'off', true)) as async_commit
       on conflict (bucket) do update set window_start = ${next.start}, hits = ${next.hits}
       returning hits, ${fixedWindowResetSql('window_start', '$2')} as reset`,
    };
  }

  /**
   * Counts one request of `bucket`. One atomic upsert: concurrent requests of one bucket on any
   * replica are serialised by the row lock, so exactly `limit` of them pass in a window.
   * Throws RATE_LIMITED past the limit (`rateLimitVerdict`).
   */
  async consume(
    db: RateLimitStore,
    bucket: string,
    policy: RateLimitPolicy,
  ): Promise<RateLimitState> {
    const [row] = await runPrepared<{ hits: number; reset: string }>(db, this.upsert, [
      bucket,
      policy.windowSeconds,
    ]);
    return rateLimitVerdict(Number(row!.hits), Number(row!.reset), policy, this.options.subject);
  }
}

/**
 * The fixed window's next state after one more request, as SQL over the window's columns (here
 * `rate_limit_window`'s; lens keeps its tenants' windows on the tenant row, migration
 * tenant_rate_window): a window that has ended restarts now with this request as its first.
 * One definition of the window for every table that counts.
 */
export function fixedWindowSql(start: string, hits: string, seconds: string) {
  const ended = `${start} <= now() - make_interval(secs => ${seconds})`;
  return {
    start: `case when ${ended} then now() else ${start} end`,
    hits: `case when ${ended} then 1 else ${hits} + 1 end`,
  };
}

/** Whole seconds until the window that starts at `start` (its new value) ends. */
export function fixedWindowResetSql(start: string, seconds: string): string {
  return `ceil(extract(epoch from (${start} + make_interval(secs => ${seconds}) - now())))::int`;
}

/**
 * The limit's answer to a request that brought its window to `hits`, `reset` seconds before the
 * window ends: the state, or RATE_LIMITED past the limit (a refused request is counted too, and
 * never moves the window's start, so hammering does not keep a caller out longer than the window).
 * `subject` ends the refusal's first sentence.
 */
export function rateLimitVerdict(
  hits: number,
  reset: number,
  { limit, windowSeconds }: RateLimitPolicy,
  subject: string,
): RateLimitState {
  const state: RateLimitState = {
    limit,
    windowSeconds,
    remaining: Math.max(0, limit - hits),
    reset: Math.max(1, reset),
  };
  if (hits > limit) {
    throw new PlatformError(
      'RATE_LIMITED',
      `More than ${limit} requests per ${describeWindow(windowSeconds)} ${subject}; ` +
        `retry in ${state.reset} s.`,
      { retryAfterSeconds: state.reset, ...rateLimitHeaders(state) },
    );
  }
  return state;
}

import type { FastifyInstance } from 'fastify';
import client, { type Counter, type Gauge, type Histogram } from 'prom-client';
import { sameSecret } from './secrets.js';
import { metricsSettings } from './config.js';

/**
 * Prometheus metrics of one service process (issue 26; names in DESIGN.md section 7): prom-client's
 * default registry with its runtime series, the HTTP server histogram every service app records,
 * and the helpers services declare their own series with. Domain gauges are read from the
 * database when Prometheus scrapes (`scrapedGauge`), never kept up to date on a request's path.
 */

const registry = client.register;

function collectDefaultsOnce(): void {
  // The registry is prom-client's process-wide one, while this module may be loaded more than
  // once in a process (the test runner's global setups each load their own copy): ask the
  // registry, not a module flag, whether the defaults are there.
  if (registry.getSingleMetric('process_cpu_user_seconds_total')) return;
  // Event-loop lag, heap, GC, CPU, handles: prom-client's standard process and Node.js series.
  client.collectDefaultMetrics({ register: registry });
}

type Labels<L extends string> = readonly L[];

/**
 * One series definition per process: a second service app in one process (tests) gets the
 * first one's metric instead of prom-client's "already registered" error.
 */
export function counter<L extends string>(name: string, help: string, labelNames: Labels<L>) {
  return (registry.getSingleMetric(name) ??
    new client.Counter({ name, help, labelNames, registers: [registry] })) as Counter<L>;
}

export function histogram<L extends string>(
  name: string,
  help: string,
  labelNames: Labels<L>,
  buckets: number[],
) {
  return (registry.getSingleMetric(name) ??
    new client.Histogram({
      name,
      help,
      labelNames,
      buckets,
      registers: [registry],
    })) as Histogram<L>;
}

/**
 * A gauge whose value is read when Prometheus scrapes: `read` sets it (usually with a cheap
 * query). Registering the name again replaces the reader, so the latest service app owns it.
 */
export function scrapedGauge<L extends string>(
  name: string,
  help: string,
  labelNames: Labels<L>,
  read: (gauge: Gauge<L>) => Promise<void> | void,
): Gauge<L> {
  registry.removeSingleMetric(name);
  return new client.Gauge({
    name,
    help,
    labelNames,
    registers: [registry],
    async collect() {
      await read(this);
    },
  });
}

/** Seconds, for request and operation durations: 5 ms to 10 s, the range a user notices. */
export const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** Label values that are not a fixed set are capped: past this many, new ones count as `other`. */
const MAX_LABEL_VALUES = 100;

/** Bounds a label whose values come from callers (GraphQL operation names). */
export function boundedLabel(max = MAX_LABEL_VALUES): (value: string) => string {
  const seen = new Set<string>();
  return (value) => {
    if (seen.has(value)) return value;
    if (seen.size >= max) return 'other';
    seen.add(value);
    return value;
  };
}

/**
 * Who may read `/metrics`: anyone in development (services bind loopback by default), only
 * holders of METRICS_TOKEN when it is set, and nobody in production without it (the route answers
 * 404: an exposed port never hands out the service's internals by default).
 */
export function metricsAccess(env?: Record<string, string | undefined>) {
  const { METRICS_ENABLED, METRICS_TOKEN, NODE_ENV } = metricsSettings(env);
  if (!METRICS_ENABLED) return { mode: 'disabled' as const };
  if (METRICS_TOKEN) return { mode: 'token' as const, token: METRICS_TOKEN };
  return { mode: NODE_ENV === 'production' ? ('off' as const) : ('open' as const) };
}

/** Whether this process records request and operation metrics (METRICS_ENABLED, default true). */
export const metricsEnabled = (): boolean => metricsAccess().mode !== 'disabled';

function bearerMatches(header: string | undefined, token: string): boolean {
  return sameSecret(header?.startsWith('Bearer ') ? header.slice(7) : '', token);
}

/**
 * The HTTP server histogram (every request, by route template, never the raw path) and
 * `GET /metrics` in Prometheus text. Route templates: fastify's (`/api/admin/settlements/:id`);
 * a request no route matched is `unmatched`.
 */
export function installMetrics(app: FastifyInstance, access = metricsAccess()): void {
  // METRICS_ENABLED=false: what the benchmark compares the default with (metrics' own cost).
  if (access.mode === 'disabled') return;
  collectDefaultsOnce();
  const duration = histogram(
    'http_server_request_duration_seconds',
    'Duration of HTTP server requests.',
    ['http_request_method', 'http_route', 'http_response_status_code'],
    DURATION_BUCKETS,
  );
  // A callback hook, not an async one: fastify then neither allocates nor awaits a promise per
  // response for this (issue 26, cost: the replay spends under 1 ms of CPU per request).
  app.addHook('onResponse', (request, reply, done) => {
    duration.observe(
      {
        http_request_method: request.method,
        http_route: request.routeOptions.url ?? 'unmatched',
        http_response_status_code: String(reply.statusCode),
      },
      reply.elapsedTime / 1000,
    );
    done();
  });
  app.get('/metrics', async (request, reply) => {
    const allowed =
      access.mode === 'open' ||
      (access.mode === 'token' && bearerMatches(request.headers.authorization, access.token));
    if (access.mode === 'off') return reply.code(404).send({ error: 'not found' });
    if (!allowed)
      return reply
        .code(401)
        .header('www-authenticate', 'Bearer realm="metrics"')
        .send({ error: 'unauthorized' });
    const text = await registry.metrics();
    return reply.header('content-type', registry.contentType).send(text);
  });
}

/** What a connection pool reports: connections in use, idle, and callers waiting for one. */
export interface PoolStats {
  used: number;
  idle: number;
  pending: number;
}

const pools = new Map<string, () => PoolStats>();

/**
 * Reports a connection pool's use and waits at scrape time (`db_client_connections_usage`,
 * `db_client_connections_pending_requests`, the OpenTelemetry database metric names).
 */
export function observePool(pool: string, stats: () => PoolStats): void {
  pools.set(pool, stats);
  if (registry.getSingleMetric('db_client_connections_usage')) return;
  scrapedGauge(
    'db_client_connections_usage',
    'Connections of a pool, by state (used, idle).',
    ['pool_name', 'state'],
    (gauge) => {
      gauge.reset();
      for (const [name, read] of pools) {
        const now = read();
        gauge.set({ pool_name: name, state: 'used' }, now.used);
        gauge.set({ pool_name: name, state: 'idle' }, now.idle);
      }
    },
  );
  scrapedGauge(
    'db_client_connections_pending_requests',
    'Callers waiting for a connection of a pool.',
    ['pool_name'],
    (gauge) => {
      gauge.reset();
      for (const [name, read] of pools) gauge.set({ pool_name: name }, read().pending);
    },
  );
}

interface TarnPool {
  numUsed(): number;
  numFree(): number;
  numPendingAcquires(): number;
}

/** The stats of a MikroORM (knex, tarn) pool: the ORM's and the prepared statements' pool. */
export function knexPoolStats(store: { getKnex(): { client: unknown } }): () => PoolStats {
  return () => {
    const pool = (store.getKnex().client as { pool?: TarnPool }).pool;
    if (!pool) return { used: 0, idle: 0, pending: 0 };
    return { used: pool.numUsed(), idle: pool.numFree(), pending: pool.numPendingAcquires() };
  };
}

/**
 * A read shared by the gauges of one scrape (one query, however many gauges show it): reused for
 * a second, so a scrape never asks the database twice for the same numbers.
 */
export function perScrape<T>(read: () => Promise<T>): () => Promise<T> {
  let last: { at: number; value: Promise<T> } | null = null;
  return () => {
    if (!last || Date.now() - last.at > 1_000) last = { at: Date.now(), value: read() };
    return last.value;
  };
}

import {
  createLogger,
  createServiceApp,
  LENS_INTERFACE_HEADER,
  lensInterfaceOf,
  knexPoolStats,
  observePool,
  verifyPrincipal,
  type Principal,
  type RunningServer,
} from '@campaign/platform';
import { mountGraphQL } from '@campaign/platform/graphql-server';
import {
  listenSubgraph,
  subgraphEndpoint,
  WORKER_STOP_TIMEOUT_MS,
  withinStopTimeout,
} from '@campaign/platform/subgraph';
import { cachedCheck } from '@campaign/platform';
import { startLensOutbox } from './alert/low-balance.worker.js';
import type { LensConfig } from './config.js';
import type { LensContext } from './context.js';
import { observeLensDomain } from './operation/operation-metrics.js';
import { startOperationWorker } from './operation/operation.worker.js';
import { Reconciler } from './operation/reconciler.js';
import { initLensOrm } from './orm.js';
import { LazyRequestParts } from './request-context.js';
import { buildLensSchema } from './schema.js';
import { createLensServices } from './services.js';
import type { Caller } from './tenant/tenant.service.js';
import { HttpSocialUpstream } from './upstream/upstream.http.js';

/** `/readyz` asks the database at most once a second, and waits at most a second for it. */
const READINESS_TIMEOUT_MS = 1_000;
const READINESS_CACHE_MS = 1_000;

export async function startLensSubgraph(config: LensConfig): Promise<RunningServer> {
  const logger = createLogger('lens', config.LOG_LEVEL);
  const orm = await initLensOrm(config.LENS_DATABASE_URL);
  const upstream = new HttpSocialUpstream({
    baseUrl: config.LENS_UPSTREAM_URL,
    token: config.LENS_UPSTREAM_TOKEN,
    timeoutMs: config.LENS_UPSTREAM_TIMEOUT_MS,
  });
  const services = createLensServices(config, { upstream, logger });
  const revocations = services.tenants.listenForRevocations(config.LENS_DATABASE_URL, logger);
  const worker = await startOperationWorker({
    connectionString: config.LENS_DATABASE_URL,
    concurrency: config.LENS_WORKER_CONCURRENCY,
    logger,
    em: () => orm.em.fork(),
    execution: services.execution,
  });
  // The low-balance e-mails (issue 24), written with the reservation that crossed the threshold.
  const outbox = await startLensOutbox({
    connectionString: config.LENS_DATABASE_URL,
    config,
    logger,
    em: () => orm.em.fork(),
  });
  // Scrape-time series (issue 26): the backlog, the job runner and the ORM's pool.
  observeLensDomain(() => orm.em, worker);
  observePool('lens', knexPoolStats(orm.em));
  const reconciler = new Reconciler(() => orm.em.fork(), logger);
  reconciler.start(config.LENS_RECONCILE_INTERVAL_MS);
  const jwt = { secret: config.AUTH_JWT_SECRET, issuer: config.AUTH_JWT_ISSUER };
  const { schema } = await buildLensSchema();
  const databaseReady = cachedCheck(
    async () => {
      await orm.em.fork().execute('select 1');
    },
    { name: 'database unreachable', timeoutMs: READINESS_TIMEOUT_MS, cacheMs: READINESS_CACHE_MS },
  );
  const app = createServiceApp({
    logger,
    // Ready only when this process can execute operations: the database answers and the job
    // runner is alive (after an outage it may still be restarting).
    readiness: async () => {
      await databaseReady();
      for (const runner of [worker.health(), outbox.health()])
        if (!runner.ok) throw new Error(runner.reason);
    },
  });
  await mountGraphQL<LensContext>({
    app,
    schema,
    ...subgraphEndpoint('LENS', config),
    context: async (request) => {
      const authorization = request.headers.authorization;
      // REST and GraphQL take API keys, the MCP front tool-protocol tokens (vouched for by the
      // gateway, which passes the header on only from the REST adapter).
      const via = lensInterfaceOf(request.headers[LENS_INTERFACE_HEADER]);
      let caller: Promise<Caller> | undefined;
      let principal: Promise<Principal> | undefined;
      const callerOnce = () =>
        (caller ??= services.tenants.authenticateCaller(orm.em, authorization, via));
      // The fork and the loader on first use only (request-context.ts); prepared statements run
      // on the ORM's pool (`db`) without one.
      return Object.assign(new LazyRequestParts(() => orm.em.fork(), services.observations), {
        db: orm.em,
        requestId: request.id,
        authorization,
        services,
        caller: callerOnce,
        tenant: async () => (await callerOnce()).tenant,
        // Verified once per request: an entity fetch asks once, not once per account.
        principal: () => (principal ??= verifyPrincipal(jwt, authorization)),
      });
    },
  });
  const where = { host: config.LENS_HOST, port: config.LENS_PORT, name: 'lens subgraph', logger };
  return listenSubgraph(
    app,
    where,
    async () => {
      await reconciler.stop();
      // Executions still running after the timeout are left to their lease and the reconciler.
      await Promise.all([
        services.execution.drain(WORKER_STOP_TIMEOUT_MS),
        withinStopTimeout(Promise.all([worker.stop(), outbox.stop()])),
      ]);
      await revocations.stop();
      await upstream.close();
    },
    orm,
  );
}

import DataLoader from 'dataloader';
import {
  createLogger,
  createServiceApp,
  graphqlLimits,
  listen,
  type RunningServer,
} from '@campaign/platform';
import { mountGraphQL } from '@campaign/platform/graphql-server';
import { cachedCheck } from '@campaign/platform/readiness';
import { verifyAdmin, verifyStaff, type Admin } from './admin/admin-auth.js';
import { AccountObservationService } from './account/account-observation.service.js';
import { createLensOperations, operationsByName } from './account/lens-operations.js';
import type { LensConfig } from './config.js';
import type { LensContext, LensServices } from './context.js';
import { CreditsService } from './credits/credits.service.js';
import { LedgerQueryService } from './credits/ledger-query.service.js';
import { AccessPolicy } from './operation/access-policy.js';
import { ExecutionService } from './operation/execution.service.js';
import { OperationEvents } from './operation/operation-events.js';
import { OperationQueryService } from './operation/operation-query.service.js';
import { OperationService } from './operation/operation.service.js';
import { startOperationWorker } from './operation/operation.worker.js';
import { PriceBook } from './operation/prices.js';
import { RateLimiter } from './operation/rate-limiter.js';
import { Reconciler } from './operation/reconciler.js';
import { ReconciliationService } from './operation/reconciliation.service.js';
import { initLensOrm } from './orm.js';
import { buildLensSchema } from './schema.js';
import type { Caller } from './tenant/tenant.service.js';
import { TenantService } from './tenant/tenant.service.js';
import { HttpSocialUpstream } from './upstream/upstream.http.js';

/** How long a stop waits for running executions before leaving them to the reconciler. */
const WORKER_STOP_TIMEOUT_MS = 5_000;
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
  const definitions = createLensOperations({ cursorSecret: config.LENS_CURSOR_SECRET });
  const byName = operationsByName(definitions);
  const unknownDisabled = config.LENS_DISABLED_OPERATIONS.filter((name) => !byName.has(name));
  if (unknownDisabled.length) {
    throw new Error(
      `LENS_DISABLED_OPERATIONS names unknown operations: ${unknownDisabled.join(', ')}`,
    );
  }
  const prices = PriceBook.checked(config.LENS_PRICES, byName.keys());
  const events = new OperationEvents();
  const execution = new ExecutionService({
    upstream,
    logger,
    prices,
    definitions: byName,
    events,
    leaseMs: config.LENS_LEASE_MS,
  });
  const tenants = new TenantService();
  const services: LensServices = {
    operations: new OperationService(
      {
        access: new AccessPolicy(config.LENS_DISABLED_OPERATIONS),
        rateLimiter: new RateLimiter(),
        prices,
        events,
      },
      { syncBudgetMs: config.LENS_SYNC_BUDGET_MS, leaseMs: config.LENS_LEASE_MS },
    ),
    definitions,
    queries: new OperationQueryService(),
    credits: new CreditsService(),
    ledger: new LedgerQueryService(),
    reconciliation: new ReconciliationService(execution),
    tenants,
  };
  const worker = await startOperationWorker({
    connectionString: config.LENS_DATABASE_URL,
    concurrency: config.LENS_WORKER_CONCURRENCY,
    logger,
    em: () => orm.em.fork(),
    execution,
  });
  const reconciler = new Reconciler(() => orm.em.fork(), logger);
  reconciler.start(config.LENS_RECONCILE_INTERVAL_MS);
  const observations = new AccountObservationService();
  const adminSettings = { secret: config.AUTH_JWT_SECRET, issuer: config.AUTH_JWT_ISSUER };
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
      const runner = worker.health();
      if (!runner.ok) throw new Error(runner.reason);
    },
  });
  await mountGraphQL<LensContext>({
    app,
    schema,
    introspection: config.LENS_INTROSPECTION,
    limits: graphqlLimits('LENS', config),
    subgraphSecret: config.SUBGRAPH_SECRET,
    context: async (request) => {
      const em = orm.em.fork();
      const authorization = request.headers.authorization;
      let caller: Promise<Caller> | undefined;
      let admin: Promise<Admin> | undefined;
      const staffChecks = new Map<string, Promise<Admin>>();
      const callerOnce = () => (caller ??= tenants.authenticateCaller(em, authorization));
      return {
        em,
        requestId: request.id,
        services,
        caller: callerOnce,
        tenant: async () => (await callerOnce()).tenant,
        admin: () => (admin ??= verifyAdmin(adminSettings, authorization)),
        staff: (roles) => {
          // Verified once per request and role set: an entity fetch asks once per account.
          const key = roles.join(',');
          let check = staffChecks.get(key);
          if (!check)
            staffChecks.set(key, (check = verifyStaff(adminSettings, authorization, roles)));
          return check;
        },
        accountLoader: new DataLoader((ids: readonly string[]) => observations.findMany(em, ids)),
      };
    },
  });
  const running = await listen(app, config.LENS_HOST, config.LENS_PORT);
  logger.info({ url: `${running.url}/graphql` }, 'lens subgraph listening');
  return {
    ...running,
    close: async () => {
      await running.close();
      await reconciler.stop();
      // Executions still running after the timeout are left to their lease and the reconciler.
      await Promise.race([
        worker.stop(),
        new Promise((resolve) => setTimeout(resolve, WORKER_STOP_TIMEOUT_MS).unref()),
      ]);
      await orm.close();
    },
  };
}

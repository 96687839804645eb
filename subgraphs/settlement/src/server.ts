import {
  cachedCheck,
  createLogger,
  createServiceApp,
  IDEMPOTENCY_KEY_HEADER,
  knexPoolStats,
  observeJobRunner,
  observePool,
  type RunningServer,
} from '@campaign/platform';
import type { EntityManager } from '@mikro-orm/postgresql';
import { mountGraphQL } from '@campaign/platform/graphql-server';
import { listenSubgraph, subgraphEndpoint, withinStopTimeout } from '@campaign/platform/subgraph';
import { verifyAuthorization, type Principal } from './kernel/principal.js';
import type { SettlementConfig } from './config.js';
import type { SettlementContext } from './api/context.js';
import { createLoaders } from './api/loaders.js';
import { idempotencyPlugin, isKeyedMutation } from './api/idempotency/idempotency.plugin.js';
import { createChannelHandlers } from './journal/outbox/handlers.js';
import { observeSettlementDomain } from './journal/outbox/outbox-metrics.js';
import { DELIVER_OUTBOX_TASK } from './journal/outbox/outbox.js';
import { startSettlementOutbox } from './journal/outbox/outbox-worker.js';
import { createOutsideSystems } from './outside/systems.js';
import { initSettlementOrm } from './orm.js';
import { buildSettlementSchema } from './schema.js';
import { createSettlementServices } from './services.js';
import { InvoiceOverdueSweep } from './flows/invoice/invoice-overdue.js';
import { createProviderRequestHandler } from './flows/tax-invoice/provider-requests.js';

/**
 * The caller's address: the subgraph answers only the gateway (SUBGRAPH_SECRET), which always
 * sets X-Forwarded-For to one address it vouches for (the REST adapter's client, or its own
 * direct caller). Only the first entry is read, should a list ever arrive.
 */
function clientAddressOf(forwarded: string | string[] | undefined, own: string): string {
  const first = (Array.isArray(forwarded) ? forwarded[0] : forwarded)?.split(',')[0]?.trim();
  return first || own;
}

export async function startSettlementSubgraph(config: SettlementConfig): Promise<RunningServer> {
  const logger = createLogger('settlement', config.LOG_LEVEL);
  const orm = await initSettlementOrm(config.SETTLEMENT_DATABASE_URL);
  const jwt = { secret: config.AUTH_JWT_SECRET, issuer: config.AUTH_JWT_ISSUER };
  const { schema } = await buildSettlementSchema();
  const outside = createOutsideSystems(config);
  const services = createSettlementServices({
    outside,
    logger,
    taxInvoiceInlineWaitMs: config.TAX_INVOICE_INLINE_WAIT_MS,
    invoiceDueDays: config.INVOICE_DUE_DAYS,
  });
  const overdue = new InvoiceOverdueSweep(() => orm.em.fork(), logger);
  overdue.start(config.INVOICE_OVERDUE_SWEEP_SECONDS * 1000);
  const outbox = await startSettlementOutbox({
    connectionString: config.SETTLEMENT_DATABASE_URL,
    config,
    handlers: createChannelHandlers(
      outside,
      createProviderRequestHandler({
        provider: outside.taxInvoiceProvider,
        em: () => orm.em.fork(),
        services,
        logger,
      }),
    ),
    logger,
    em: () => orm.em.fork(),
  });
  // Scrape-time series (issue 26): outbox, settlements, the job runner and the ORM's pool.
  observeSettlementDomain(() => orm.em);
  observeJobRunner(outbox, () => orm.em, [DELIVER_OUTBOX_TASK]);
  observePool('settlement', knexPoolStats(orm.em));
  const databaseReady = cachedCheck(
    async () => {
      await orm.em.fork().execute('select 1');
    },
    { name: 'database unreachable', timeoutMs: 1_000, cacheMs: 1_000 },
  );
  const app = createServiceApp({
    logger,
    // Ready when the database answers and the outbox is being delivered: after an outage the
    // job runner may still be restarting, and messages would silently wait.
    readiness: async () => {
      await databaseReady();
      const runner = outbox.health();
      if (!runner.ok) throw new Error(runner.reason);
    },
  });
  await mountGraphQL<SettlementContext>({
    app,
    schema,
    ...subgraphEndpoint('SETTLEMENT', config),
    plugins: [idempotencyPlugin()],
    fullPipeline: (operation, request) =>
      isKeyedMutation(operation, request.headers[IDEMPOTENCY_KEY_HEADER]),
    context: async (request) => {
      // Forked on first use (issue 27): a detail reads on prepared statements only.
      let em: EntityManager | undefined;
      let principal: Promise<Principal> | undefined;
      const context: SettlementContext = {
        get em() {
          return (em ??= orm.em.fork());
        },
        reads: orm.em,
        requestId: request.id,
        clientAddress: clientAddressOf(request.headers['x-forwarded-for'], request.ip),
        services,
        principal: () => (principal ??= verifyAuthorization(jwt, request.headers.authorization)),
        loaders: createLoaders(() => context.em, orm.em),
      };
      return context;
    },
  });
  const where = {
    host: config.SETTLEMENT_HOST,
    port: config.SETTLEMENT_PORT,
    name: 'settlement subgraph',
    logger,
  };
  return listenSubgraph(
    app,
    where,
    async () => {
      await overdue.stop();
      await withinStopTimeout(outbox.stop());
      await outside.close();
    },
    orm,
  );
}

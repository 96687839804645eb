import { resolve } from 'node:path';
import { startSocialUpstreamSimulator } from '@campaign/providers';
import type { StackConfig } from './config.js';
import { ensureDatabase, migrateAll } from './databases.js';
import { startEmbeddedPostgres, type EmbeddedDatabase } from './embedded-postgres.js';
import {
  repoRoot,
  superviseService,
  type ServiceOutput,
  type SupervisedService,
} from './processes.js';
import {
  launchReplicaSet,
  type LaunchedSpec,
  type ReplicaSetOptions,
  type ReplicaUrls,
} from './replicas.js';
import { seedSettlement } from './seed.js';
import { startOutsideSystems, type OutsideSystemUrls } from './simulators.js';
import { acquireStackLock } from './stack-lock.js';

export interface StackUrls extends OutsideSystemUrls {
  rest: string;
  gateway: string;
  lens: string;
  settlement: string;
  upstream: string;
  lensDatabase: string;
  settlementDatabase: string;
}

export interface RunningStack {
  urls: StackUrls;
  /** The embedded server, when no database URLs were configured (fault tests stop it). */
  database: EmbeddedDatabase | null;
  /** The services, kept running by the orchestrator (restarted when one dies). */
  services: SupervisedService[];
  /** Every set of services: the first (the URLs above), then each of `replicaSets`. */
  replicas?: ReplicaUrls[];
  stop(): Promise<void>;
}

export interface StackOptions {
  config: StackConfig;
  log: (line: string) => void;
  /** Where services write their logs: the terminal for `npm start`, nowhere in tests. */
  serviceOutput: ServiceOutput;
  /** Extra environment for every service (tests shorten budgets and delays). */
  serviceEnv?: Record<string, string>;
  upstreamSlowDelayMs?: number;
  /** How long the simulated tax-invoice provider takes to decide (TAX_INVOICE_SIM_DELAY_MS). */
  taxInvoiceDelayMs?: number;
  /** More sets of the services on the same databases (issue 16: stateless replicas). */
  replicaSets?: ReplicaSetOptions[];
  /** False for a test stack's embedded database: no fsync (`npm start` keeps the default). */
  durableDatabase?: boolean;
}

/**
 * Brings up the whole platform: PostgreSQL (embedded unless URLs are configured), migrations,
 * demo data, simulated providers, both subgraphs, the gateway and the REST adapter.
 */
export async function startStack(options: StackOptions): Promise<RunningStack> {
  const { config, log } = options;
  const stoppers: (() => Promise<void>)[] = [];
  const services: SupervisedService[] = [];
  let shuttingDown = false;
  const stop = async () => {
    shuttingDown = true;
    for (const stopOne of stoppers.reverse())
      await stopOne().catch((e) => log(`stop failed: ${String(e)}`));
  };
  try {
    let database: EmbeddedDatabase | null = null;
    let lensDatabase = config.LENS_DATABASE_URL;
    let settlementDatabase = config.SETTLEMENT_DATABASE_URL;
    if (!lensDatabase || !settlementDatabase) {
      const lock = await acquireStackLock(resolve(repoRoot, config.DATA_DIR), 'npm start');
      stoppers.push(async () => lock.release());
      const dataDir = resolve(repoRoot, config.DATA_DIR, 'postgres');
      database = await startEmbeddedPostgres({
        dataDir,
        port: config.EMBEDDED_PG_PORT,
        log,
        durable: options.durableDatabase ?? true,
      });
      stoppers.push(() => database!.stop());
      lensDatabase = database.urlFor('lens');
      settlementDatabase = database.urlFor('settlement');
      log(
        `PostgreSQL (embedded) on 127.0.0.1:${config.EMBEDDED_PG_PORT}, data in ${database.dataDir}`,
      );
    }
    for (const url of [lensDatabase, settlementDatabase]) {
      if (await ensureDatabase(url)) log(`created database ${new URL(url).pathname.slice(1)}`);
    }
    await migrateAll({ lens: lensDatabase, settlement: settlementDatabase });
    if (await seedSettlement(settlementDatabase)) log('seeded demo data');

    let upstream = config.LENS_UPSTREAM_URL;
    if (!upstream) {
      const simulator = await startSocialUpstreamSimulator({
        host: '127.0.0.1',
        port: config.PROVIDERS_BASE_PORT,
        ...(options.upstreamSlowDelayMs ? { slowDelayMs: options.upstreamSlowDelayMs } : {}),
      });
      stoppers.push(() => simulator.close());
      upstream = simulator.url;
    }

    const common = { LOG_LEVEL: config.LOG_LEVEL, ...options.serviceEnv };
    const host = '127.0.0.1';
    const rest = `http://${host}:${config.REST_PORT}`;
    const outside = await startOutsideSystems({
      config,
      restUrl: rest,
      quiet: options.serviceOutput !== 'inherit',
      ...(options.taxInvoiceDelayMs !== undefined
        ? { taxInvoiceDelayMs: options.taxInvoiceDelayMs }
        : {}),
    });
    stoppers.push(() => outside.stop());
    const urls: StackUrls = {
      ...outside.urls,
      rest,
      gateway: `http://${host}:${config.GATEWAY_PORT}/graphql`,
      lens: `http://${host}:${config.LENS_PORT}/graphql`,
      settlement: `http://${host}:${config.SETTLEMENT_PORT}/graphql`,
      upstream,
      lensDatabase,
      settlementDatabase,
    };
    const launched: LaunchedSpec[] = [];
    const launch = async (name: string, main: string, env: Record<string, string>) => {
      launched.push({ name, main, env });
      const service = await superviseService(
        { name, main, env: { ...common, ...env } },
        options.serviceOutput,
        log,
        () => shuttingDown,
      );
      services.push(service);
      stoppers.push(() => service.stop());
    };
    // All four at once: none needs another to start (both gateway engines, the standalone one
    // and the adapter's, read the committed supergraph and call the subgraphs only when asked),
    // so the stack is up in the time of the slowest rather than of a chain of three (issue 22:
    // stacks boot often in the tests).
    await Promise.all([
      launch('lens subgraph', 'subgraphs/lens/src/main.ts', {
        LENS_PORT: String(config.LENS_PORT),
        LENS_DATABASE_URL: lensDatabase,
        LENS_UPSTREAM_URL: upstream,
        // The low-balance alert's e-mail goes to the same SMTP server as settlement's.
        ...outside.mailEnv,
      }),
      launch('settlement subgraph', 'subgraphs/settlement/src/main.ts', {
        SETTLEMENT_PORT: String(config.SETTLEMENT_PORT),
        SETTLEMENT_DATABASE_URL: settlementDatabase,
        // Where its outside-system adapters send (the simulators above, or the real ones).
        ...outside.settlementEnv,
      }),
      launch('gateway', 'gateway/src/main.ts', {
        GATEWAY_PORT: String(config.GATEWAY_PORT),
        LENS_SUBGRAPH_URL: urls.lens,
        SETTLEMENT_SUBGRAPH_URL: urls.settlement,
      }),
      // The standalone gateway serves consoles; the adapter runs its own gateway engine in its
      // process (issue 27), on the same subgraphs.
      launch('rest adapter', 'rest-adapter/src/main.ts', {
        REST_PORT: String(config.REST_PORT),
        LENS_SUBGRAPH_URL: urls.lens,
        SETTLEMENT_SUBGRAPH_URL: urls.settlement,
        // MCP authorization keeps its state in the lens database (issue 25).
        LENS_DATABASE_URL: lensDatabase,
      }),
    ]);
    const first = [...launched];
    const more = await Promise.all(
      (options.replicaSets ?? []).map((set, index) =>
        launchReplicaSet(first, set, index + 2, urls, launch),
      ),
    );
    const replicas: ReplicaUrls[] = [urls, ...more];
    return { urls, database, services, replicas, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

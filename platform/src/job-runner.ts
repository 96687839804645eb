import type { Logger as GraphileLogger, TaskList } from 'graphile-worker';
import pg from 'pg';
import type { Logger } from './logger.js';
import { WorkerSupervisor } from './worker-supervisor.js';

/**
 * Durable jobs for the services that have them (lens executions, settlement outbox delivery):
 * graphile-worker on the service's own database, always under a {@link WorkerSupervisor}.
 * graphile-worker is imported lazily: the gateway, the REST adapter and the CLI load this
 * package too and have no jobs, so they should not pay for loading it.
 */

const graphileWorker = () => import('graphile-worker');

/** graphile-worker's log lines through the service's pino logger. */
async function workerLogger(logger: Logger | undefined): Promise<GraphileLogger> {
  const { Logger: GraphileLoggerClass } = await graphileWorker();
  if (!logger) return new GraphileLoggerClass(() => () => {});
  return new GraphileLoggerClass((scope) => (level, message) => {
    const method = level === 'warning' ? 'warn' : level === 'error' ? 'error' : 'debug';
    logger[method]({ worker: scope }, message);
  });
}

/**
 * Installs or upgrades graphile-worker's schema (`graphile_worker`) in a service's database: a
 * deploy step, run with the service's migrations (orchestrator and `db:reset`), not at start.
 */
export async function migrateJobQueue(connectionString: string, logger?: Logger): Promise<void> {
  const { runMigrations } = await graphileWorker();
  await runMigrations({ connectionString, logger: await workerLogger(logger) });
}

export interface JobRunnerOptions {
  connectionString: string;
  /** Jobs one process runs at once. */
  concurrency: number;
  taskList: TaskList;
  logger: Logger;
  /**
   * How often idle workers look for jobs whose time has come (new jobs wake them at once through
   * LISTEN/NOTIFY; a job scheduled for later is found by this poll). Default 2 s.
   */
  pollIntervalMs?: number;
  /** Supervisor back-off bounds (tests shorten them). */
  minBackoffMs?: number;
  maxBackoffMs?: number;
}

/**
 * Starts a supervised graphile-worker runner: replaced whenever a worker dies, its LISTEN
 * connection fails or it stops by itself, with jobs held by dead workers freed
 * (`force_unlock_workers`). Throws when the first runner cannot start, like any start-up failure.
 * `health()` of the result feeds `/readyz`.
 */
export async function startJobRunner(options: JobRunnerOptions): Promise<WorkerSupervisor> {
  const { run } = await graphileWorker();
  const logger = await workerLogger(options.logger);
  const supervisor = new WorkerSupervisor({
    launch: async () => {
      // A pool of our own, listened to for its whole life: graphile-worker removes its own
      // 'error' listener when a runner is retired, and a connection the database drops while
      // idle in that pool (an outage, with no job running) would then raise an unhandled
      // 'error' and end the process. The pool ends once its runner has.
      const pgPool = new pg.Pool({
        connectionString: options.connectionString,
        max: Math.min(options.concurrency + 2, 12),
        // A connection attempt the database never answers fails, so a start cannot hang on it.
        connectionTimeoutMillis: 5_000,
      });
      pgPool.on('error', (err) =>
        options.logger.debug({ err }, 'job runner connection lost while idle'),
      );
      const end = () => pgPool.end().catch(() => undefined);
      try {
        const runner = await run({
          pgPool,
          concurrency: options.concurrency,
          noHandleSignals: true,
          pollInterval: options.pollIntervalMs ?? 2_000,
          crontab: '',
          logger,
          taskList: options.taskList,
        });
        void runner.promise.then(end, end);
        return runner;
      } catch (err) {
        await end();
        throw err;
      }
    },
    unlockWorkers: (workerIds) => forceUnlockWorkers(options.connectionString, workerIds),
    logger: options.logger,
    ...(options.minBackoffMs !== undefined ? { minBackoffMs: options.minBackoffMs } : {}),
    ...(options.maxBackoffMs !== undefined ? { maxBackoffMs: options.maxBackoffMs } : {}),
  });
  await supervisor.start();
  return supervisor;
}

/**
 * A connection of its own rather than the runner's pool: this runs right after a replacement,
 * when the old pool may be the broken one.
 */
async function forceUnlockWorkers(connectionString: string, workerIds: string[]): Promise<void> {
  const client = new pg.Client({ connectionString, connectionTimeoutMillis: 5_000 });
  await client.connect();
  try {
    await client.query('select graphile_worker.force_unlock_workers($1::text[])', [workerIds]);
  } finally {
    await client.end().catch(() => undefined);
  }
}

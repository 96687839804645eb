import { hostname } from 'node:os';
import type { EntityManager } from '@mikro-orm/postgresql';
import { Logger as WorkerLogger, run, runMigrations, type Runner } from 'graphile-worker';
import type { Logger } from '@campaign/platform';
import type { ExecutionService } from './execution.service.js';
import { EXECUTE_TASK, operationIdOf, RECONCILE_TASK } from './job-queue.js';
import { WorkerSupervisor } from './worker-supervisor.js';

export interface WorkerOptions {
  connectionString: string;
  concurrency: number;
  logger: Logger;
  em: () => EntityManager;
  execution: ExecutionService;
}

/** graphile-worker's log lines through the service's pino logger. */
export function workerLogger(logger: Logger): WorkerLogger {
  return new WorkerLogger((scope) => (level, message) => {
    const method = level === 'warning' ? 'warn' : level === 'error' ? 'error' : 'debug';
    logger[method]({ worker: scope }, message);
  });
}

/** Installs or upgrades graphile-worker's schema (`graphile_worker`) in the lens database. */
export async function migrateJobQueue(connectionString: string, logger?: Logger): Promise<void> {
  await runMigrations({
    connectionString,
    ...(logger ? { logger: workerLogger(logger) } : { logger: new WorkerLogger(() => () => {}) }),
  });
}

/** Every attempt names its owner: this process and the job, for the lease and the logs. */
const instance = `${hostname()}:${process.pid}`;

/**
 * The durable side of the engine, inside the lens subgraph process: a graphile-worker pool that
 * executes queued operations and resolves the ones the reconciler found, kept alive by a
 * supervisor (a database outage kills graphile-worker's workers for good; see the supervisor).
 */
export async function startOperationWorker(options: WorkerOptions): Promise<WorkerSupervisor> {
  const supervisor = new WorkerSupervisor({
    launch: () => launchRunner(options),
    unlockWorkers: async (workerIds) => {
      await options.em().execute(
        `select graphile_worker.force_unlock_workers(
             array(select jsonb_array_elements_text(?::jsonb)))`,
        [JSON.stringify(workerIds)],
      );
    },
    logger: options.logger,
  });
  await supervisor.start();
  return supervisor;
}

function launchRunner(options: WorkerOptions): Promise<Runner> {
  return run({
    connectionString: options.connectionString,
    concurrency: options.concurrency,
    maxPoolSize: Math.min(options.concurrency + 2, 12),
    noHandleSignals: true,
    pollInterval: 2_000,
    crontab: '',
    logger: workerLogger(options.logger),
    taskList: {
      [EXECUTE_TASK]: (payload, helpers) =>
        options.execution.attempt(
          options.em(),
          operationIdOf(payload),
          'RUNNING',
          `${instance}:job${helpers.job.id}`,
        ),
      [RECONCILE_TASK]: (payload, helpers) =>
        options.execution.attempt(
          options.em(),
          operationIdOf(payload),
          'RECONCILIATION_REQUIRED',
          `${instance}:job${helpers.job.id}`,
        ),
    },
  });
}

import { hostname } from 'node:os';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Task } from 'graphile-worker';
import { startJobRunner, type Logger, type WorkerSupervisor } from '@campaign/platform';
import type { AttemptFrom, ExecutionService } from './execution.service.js';
import { EXECUTE_TASK, operationIdOf, RECONCILE_TASK } from './job-queue.js';

export interface WorkerOptions {
  connectionString: string;
  concurrency: number;
  logger: Logger;
  em: () => EntityManager;
  execution: ExecutionService;
}

/** Every attempt names its owner: this process and the job, for the lease and the logs. */
const instance = `${hostname()}:${process.pid}`;

/**
 * The durable side of the engine, inside the lens subgraph process: a graphile-worker pool that
 * executes queued operations and resolves the ones the reconciler found, kept alive by the
 * platform's supervisor (a database outage kills graphile-worker's workers for good; see
 * `WorkerSupervisor` in @campaign/platform).
 */
export function startOperationWorker(options: WorkerOptions): Promise<WorkerSupervisor> {
  // Both tasks attempt the operation their payload names, each from the status it waits in.
  const attemptFrom =
    (status: AttemptFrom): Task =>
    (payload, helpers) =>
      options.execution.attempt(
        options.em(),
        operationIdOf(payload),
        status,
        `${instance}:job${helpers.job.id}`,
      );
  return startJobRunner({
    connectionString: options.connectionString,
    concurrency: options.concurrency,
    logger: options.logger,
    taskList: {
      [EXECUTE_TASK]: attemptFrom('RUNNING'),
      [RECONCILE_TASK]: attemptFrom('RECONCILIATION_REQUIRED'),
    },
  });
}

import type { EntityManager } from '@mikro-orm/postgresql';

/** graphile-worker task names (its schema `graphile_worker` lives in the lens database). */
export const EXECUTE_TASK = 'lens_execute_operation';
export const RECONCILE_TASK = 'lens_reconcile_operation';

/** Attempts graphile-worker makes when a job throws (the database was unreachable, ...). */
export const JOB_MAX_ATTEMPTS = 10;

export interface OperationJob {
  operationId: string;
}

/** Reads a job payload; anything else is a bug in whoever queued it. */
export function operationIdOf(payload: unknown): string {
  const id = (payload as Partial<OperationJob> | null)?.operationId;
  if (typeof id !== 'string')
    throw new Error(`job payload without operationId: ${JSON.stringify(payload)}`);
  return id;
}

/**
 * Queues the execution of an operation in the caller's transaction, so the operation row, its
 * reservation and its job are committed together or not at all.
 */
export async function enqueueExecution(em: EntityManager, operationId: string): Promise<void> {
  await em.execute(
    `select graphile_worker.add_job(?, json_build_object('operationId', ?::text),
       job_key => ?, max_attempts => ?)`,
    [EXECUTE_TASK, operationId, `execute:${operationId}`, JOB_MAX_ATTEMPTS],
  );
}

import type { EntityManager } from '@mikro-orm/postgresql';
import { errorBody, PlatformError } from '@campaign/schema';
import type { Principal } from '@campaign/platform';
import type { ExecutionService } from './execution.service.js';
import { Operation } from './operation.entity.js';

/** RERUN reads again and settles on the outcome; FAIL gives up with a full refund. */
export type Resolution = 'RERUN' | 'FAIL';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** What an admin can do about an operation in RECONCILIATION_REQUIRED (DESIGN.md L6). */
export class ReconciliationService {
  constructor(private readonly execution: ExecutionService) {}

  async resolve(
    em: EntityManager,
    operationId: string,
    resolution: Resolution,
    admin: Principal,
  ): Promise<Operation> {
    const found = UUID.test(operationId) ? await em.findOne(Operation, { id: operationId }) : null;
    if (!found) {
      throw new PlatformError('OPERATION_NOT_FOUND', `No operation ${operationId}.`);
    }
    if (found.status !== 'RECONCILIATION_REQUIRED') {
      throw new PlatformError(
        'INVALID_STATUS_TRANSITION',
        `Operation ${operationId} is ${found.status}; only RECONCILIATION_REQUIRED can be resolved.`,
        { currentStatus: found.status },
      );
    }
    if (resolution === 'RERUN') {
      await this.execution.attempt(
        em,
        operationId,
        'RECONCILIATION_REQUIRED',
        `admin:${admin.subject}`,
      );
    } else {
      await this.execution.fail(
        em,
        operationId,
        errorBody(
          'EXECUTION_FAILED',
          'An administrator resolved this operation as FAILED; every reserved credit was refunded.',
        ),
      );
    }
    return em.findOneOrFail(Operation, { id: operationId }, { refresh: true });
  }
}

import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { PlatformError } from '@campaign/schema';
import type { Logger } from '@campaign/platform';
import { CreditsService } from '../credits/credits.service.js';
import { AccountObservationService } from '../account/account-observation.service.js';
import type { Tenant } from '../tenant/tenant.entity.js';
import type { SocialUpstream } from '../upstream/upstream.port.js';
import { inputHash } from './canonical.js';
import { chargeFor, reservationFor, type OperationDefinition } from './operation-definition.js';
import { Operation } from './operation.entity.js';
import { failureOf } from './upstream-errors.js';

export interface OperationOutcome {
  operation: Operation;
  replayed: boolean;
}

const MAX_IDEMPOTENCY_KEY_LENGTH = 128;

/**
 * The billed, idempotent execution of every lens operation: input, permission, idempotency,
 * reservation, execution, settlement, in that order (DESIGN.md L2, L3, L5).
 */
export class OperationService {
  constructor(
    private readonly upstream: SocialUpstream,
    private readonly logger: Logger,
    private readonly credits = new CreditsService(),
    private readonly observations = new AccountObservationService(),
  ) {}

  async run<I>(
    em: EntityManager,
    authenticate: () => Promise<Tenant>,
    definition: OperationDefinition<I>,
    idempotencyKey: string,
    rawInput: unknown,
  ): Promise<OperationOutcome> {
    if (idempotencyKey.length < 1 || idempotencyKey.length > MAX_IDEMPOTENCY_KEY_LENGTH) {
      throw new PlatformError('INVALID_REQUEST', 'Idempotency-Key must be 1 to 128 characters.');
    }
    const input = definition.parseInput(rawInput);
    const tenant = await authenticate();
    if (!tenant.permissions.includes('*') && !tenant.permissions.includes(definition.name)) {
      throw new PlatformError('PERMISSION_DENIED', `This API key may not call ${definition.name}.`);
    }
    const started = await this.start(em, tenant, definition, idempotencyKey, input);
    if (started.replayed) return started;
    return {
      operation: await this.execute(em, tenant, definition, started.operation, input),
      replayed: false,
    };
  }

  async findForTenant(em: EntityManager, tenant: Tenant, operationId: string): Promise<Operation> {
    const found = /^[0-9a-f-]{36}$/i.test(operationId)
      ? await em.findOne(Operation, { id: operationId, tenant: tenant.id })
      : null;
    if (!found)
      throw new PlatformError(
        'OPERATION_NOT_FOUND',
        `No operation ${operationId} for this API key.`,
      );
    return found;
  }

  private async start<I>(
    em: EntityManager,
    tenant: Tenant,
    definition: OperationDefinition<I>,
    idempotencyKey: string,
    input: I,
  ): Promise<OperationOutcome> {
    const hash = inputHash(definition.name, input);
    const reserved = reservationFor(definition, input);
    const id = randomUUID();
    const existingId = await em.transactional(async (tx) => {
      const inserted = await tx.execute<{ id: string }[]>(
        `insert into operation (id, tenant_id, idempotency_key, operation_name, input, input_hash, status, credits_reserved)
         values (?, ?, ?, ?, ?, ?, 'RUNNING', ?)
         on conflict (tenant_id, idempotency_key) do nothing returning id`,
        [id, tenant.id, idempotencyKey, definition.name, JSON.stringify(input), hash, reserved],
      );
      if (inserted.length === 0) {
        const [row] = await tx.execute<
          { id: string; operation_name: string; input_hash: string }[]
        >(
          `select id, operation_name, input_hash from operation where tenant_id = ? and idempotency_key = ?`,
          [tenant.id, idempotencyKey],
        );
        if (row!.operation_name !== definition.name || row!.input_hash !== hash) {
          throw new PlatformError(
            'IDEMPOTENCY_KEY_REUSED',
            'This Idempotency-Key was used with a different operation or input; use a new key for a new request.',
          );
        }
        return row!.id;
      }
      if (!(await this.credits.reserve(tx, tenant.id, id, reserved))) {
        throw new PlatformError(
          'INSUFFICIENT_CREDITS',
          `${definition.name} needs ${reserved} credits reserved; top up the balance and retry.`,
        );
      }
      return null;
    });
    const operation = await em.findOneOrFail(
      Operation,
      { id: existingId ?? id },
      { refresh: true },
    );
    return { operation, replayed: existingId !== null };
  }

  private async execute<I>(
    em: EntityManager,
    tenant: Tenant,
    definition: OperationDefinition<I>,
    operation: Operation,
    input: I,
  ): Promise<Operation> {
    const reserved = Number(operation.creditsReserved);
    try {
      const result = await definition.execute(input, {
        upstream: this.upstream,
        tenantId: tenant.id,
      });
      const charged = Math.min(
        reserved,
        chargeFor(definition as OperationDefinition<never>, result.itemCount),
      );
      const observedAt = new Date();
      await em.transactional(async (tx) => {
        await this.observations.record(tx, result.observedAccounts, observedAt);
        await this.finish(tx, operation.id, 'SUCCEEDED', {
          result: result.data,
          observedAt,
          reserved,
          charged,
        });
        await this.credits.settle(tx, tenant.id, operation.id, reserved, charged);
      });
    } catch (error) {
      const failure = failureOf(error);
      if (failure.code === 'EXECUTION_FAILED')
        this.logger.error({ err: error, operationId: operation.id }, 'execution failed');
      await em.transactional(async (tx) => {
        await this.finish(tx, operation.id, 'FAILED', { error: failure, reserved, charged: 0 });
        await this.credits.settle(tx, tenant.id, operation.id, reserved, 0);
      });
    }
    return em.findOneOrFail(Operation, { id: operation.id }, { refresh: true });
  }

  private async finish(
    em: EntityManager,
    operationId: string,
    status: 'SUCCEEDED' | 'FAILED',
    outcome: {
      result?: unknown;
      error?: unknown;
      observedAt?: Date;
      reserved: number;
      charged: number;
    },
  ): Promise<void> {
    await em.execute(
      `update operation set status = ?, result = ?, error = ?, observed_at = ?, credits_charged = ?,
         credits_refunded = ?, updated_at = now() where id = ? and status = 'RUNNING'`,
      [
        status,
        outcome.result === undefined ? null : JSON.stringify(outcome.result),
        outcome.error === undefined ? null : JSON.stringify(outcome.error),
        outcome.observedAt ?? null,
        outcome.charged,
        outcome.reserved - outcome.charged,
        operationId,
      ],
    );
  }
}

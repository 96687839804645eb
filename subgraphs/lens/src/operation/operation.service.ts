import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { PostgresRateLimiter } from '@campaign/platform';
import { PlatformError } from '@campaign/schema';
import { LENS_LIMITS } from '@campaign/schema';
import type { LensOperations } from '../account/lens-operations.js';
import type { CreditsService } from '../credits/credits.service.js';
import type { Caller } from '../tenant/tenant.service.js';
import type { AccessPolicy } from './access-policy.js';
import { inputHash } from './canonical.js';
import { enqueueExecution } from './job-queue.js';
import type { OperationDefinition } from './operation-definition.js';
import { Operation } from './operation.entity.js';
import type { OperationEvents } from './operation-events.js';
import type { PriceBook } from './prices.js';

export interface OperationOutcome {
  operation: Operation;
  replayed: boolean;
}

export interface EngineSettings {
  syncBudgetMs: number;
  leaseMs: number;
}

export interface EngineParts {
  definitions: LensOperations;
  credits: CreditsService;
  access: AccessPolicy;
  /** Per API key, `rateLimitPerMinute` of its tenant (DESIGN.md L8). */
  rateLimiter: PostgresRateLimiter;
  prices: PriceBook;
  events: OperationEvents;
}

const IDEMPOTENCY_KEY = LENS_LIMITS.idempotencyKey;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** How often a waiting request looks at its operation when the news may come from elsewhere. */
const POLL_MS = 250;

/**
 * The billed, idempotent execution of every lens operation, checks in the order of DESIGN.md L2:
 * input and Idempotency-Key (400), credential (401), disabled/plan/permission (403), rate limit
 * (429), idempotency (replay or 409), reservation (402). The operation row, its reservation and
 * its durable job are committed in one transaction; the request then waits up to the sync
 * budget for the job to finish (L4) and answers with the operation in whatever state it is.
 */
export class OperationService {
  constructor(
    private readonly parts: EngineParts,
    private readonly settings: EngineSettings,
  ) {}

  /** Runs `operationName` (lens spec section 4) for the caller that `authenticate` finds. */
  async run(
    em: EntityManager,
    authenticate: () => Promise<Caller>,
    operationName: string,
    idempotencyKey: string,
    rawInput: unknown,
  ): Promise<OperationOutcome> {
    const deadline = Date.now() + this.settings.syncBudgetMs;
    const definition = this.parts.definitions.get(operationName);
    if (!definition) throw new Error(`unknown lens operation ${operationName}`);
    if (
      idempotencyKey.length < IDEMPOTENCY_KEY.min ||
      idempotencyKey.length > IDEMPOTENCY_KEY.max
    ) {
      throw new PlatformError(
        'INVALID_REQUEST',
        `Idempotency-Key must be ${IDEMPOTENCY_KEY.min} to ${IDEMPOTENCY_KEY.max} characters.`,
      );
    }
    const input = definition.parseInput(rawInput);
    const { tenant, apiKeyId } = await authenticate();
    definition.validate?.(input, { tenantId: tenant.id });
    this.parts.access.check(tenant, definition.name);
    await this.parts.rateLimiter.consume(em, `api_key:${apiKeyId}`, {
      limit: tenant.rateLimitPerMinute,
      windowSeconds: 60,
    });
    const started = await this.start(em, tenant.id, definition, idempotencyKey, input);
    await this.waitWhileRunning(em, started.id, deadline);
    const operation = await em.findOneOrFail(Operation, { id: started.id }, { refresh: true });
    return { operation, replayed: started.replayed };
  }

  async findForTenant(em: EntityManager, tenantId: string, operationId: string) {
    const found = UUID.test(operationId)
      ? await em.findOne(Operation, { id: operationId, tenant: tenantId })
      : null;
    if (!found) {
      throw new PlatformError(
        'OPERATION_NOT_FOUND',
        `No operation ${operationId} for this API key.`,
      );
    }
    return found;
  }

  /** Inserts the operation, or finds the one this key already started (replay or 409). */
  private async start<I>(
    em: EntityManager,
    tenantId: string,
    definition: OperationDefinition<I>,
    idempotencyKey: string,
    input: I,
  ): Promise<{ id: string; replayed: boolean }> {
    const hash = inputHash(definition.name, input);
    const price = this.parts.prices.of(definition);
    const reserved = this.parts.prices.reservation(definition, input);
    const id = randomUUID();
    return em.transactional(async (tx) => {
      const inserted = await tx.execute<{ id: string }[]>(
        `insert into operation (id, tenant_id, idempotency_key, operation_name, input, input_hash,
           status, credits_reserved, price_base, price_per_item, lease_expires_at)
         values (?, ?, ?, ?, ?, ?, 'RUNNING', ?, ?, ?, now() + make_interval(secs => ?))
         on conflict (tenant_id, idempotency_key) do nothing returning id`,
        [
          id,
          tenantId,
          idempotencyKey,
          definition.name,
          JSON.stringify(input),
          hash,
          reserved,
          price.base,
          price.perItem,
          this.settings.leaseMs / 1000,
        ],
      );
      if (inserted.length === 0) {
        const [row] = await tx.execute<
          { id: string; operation_name: string; input_hash: string }[]
        >(
          `select id, operation_name, input_hash from operation where tenant_id = ? and idempotency_key = ?`,
          [tenantId, idempotencyKey],
        );
        if (row!.operation_name !== definition.name || row!.input_hash !== hash) {
          throw new PlatformError(
            'IDEMPOTENCY_KEY_REUSED',
            'This Idempotency-Key was used with a different operation or input; use a new key for a new request.',
          );
        }
        return { id: row!.id, replayed: true };
      }
      if (!(await this.parts.credits.reserve(tx, tenantId, id, reserved))) {
        throw new PlatformError(
          'INSUFFICIENT_CREDITS',
          `${definition.name} needs ${reserved} credits reserved; top up the balance and retry.`,
        );
      }
      await enqueueExecution(tx, id);
      return { id, replayed: false };
    });
  }

  /** Returns when the operation leaves RUNNING or the deadline passes, whichever is first. */
  private async waitWhileRunning(em: EntityManager, id: string, deadline: number): Promise<void> {
    for (;;) {
      const remaining = deadline - Date.now();
      const next = this.parts.events.next(id, Math.min(remaining, POLL_MS));
      const [row] = await em.execute<{ status: string }[]>(
        `select status from operation where id = ?`,
        [id],
      );
      if (row?.status !== 'RUNNING' || remaining <= 0) return;
      await next;
    }
  }
}

import type { EntityManager } from '@mikro-orm/postgresql';
import { errorBody } from '@campaign/schema';
import type { Logger } from '@campaign/platform';
import type { AccountObservationService } from '../account/account-observation.service.js';
import type { LensOperations } from '../account/lens-operations.js';
import type { CreditsService } from '../credits/credits.service.js';
import type { AccountSummary, SocialUpstream } from '../upstream/upstream.port.js';
import type { Price } from './operation-definition.js';
import type { OperationErrorBody } from './operation.entity.js';
import type { OperationEvents } from './operation-events.js';
import { chargeAt, type PriceBook } from './prices.js';
import { failureOf } from './upstream-errors.js';

/** The statuses an attempt may start from: a fresh execution, or a reconciliation. */
export type AttemptFrom = 'RUNNING' | 'RECONCILIATION_REQUIRED';

interface Claimed {
  id: string;
  tenantId: string;
  operationName: string;
  input: unknown;
  reserved: number;
  /** The price in force when the operation was accepted (null on rows older than prices). */
  price: Price | null;
}

type Outcome =
  | {
      status: 'SUCCEEDED';
      result: Record<string, unknown>;
      charged: number;
      observedAccounts: AccountSummary[];
    }
  | { status: 'FAILED'; error: OperationErrorBody };

export interface ExecutionDependencies {
  upstream: SocialUpstream;
  logger: Logger;
  prices: PriceBook;
  definitions: LensOperations;
  credits: CreditsService;
  observations: AccountObservationService;
  events: OperationEvents;
  leaseMs: number;
}

/**
 * One attempt at an operation: claim its lease, read, then settle in one transaction (status,
 * result, observations, ledger). The first attempt to settle wins: the update is conditional on
 * the operation not being terminal yet, and credits move only when it matched, so a repeated or
 * concurrent attempt (a retried job, the reconciler, an admin) can never settle twice.
 */
export class ExecutionService {
  constructor(private readonly deps: ExecutionDependencies) {}

  /** Runs an attempt as `owner`; does nothing when the operation is no longer in `from`. */
  async attempt(em: EntityManager, operationId: string, from: AttemptFrom, owner: string) {
    const claimed = await this.claim(em, operationId, from, owner);
    if (!claimed) return;
    // A failed renewal (database unreachable) is logged and tried again at the next beat; one
    // still waiting is not doubled, so an outage does not stack renewals on the pool. If the
    // lease runs out meanwhile, the reconciler takes the operation over (first settlement wins).
    let renewing = false;
    const heartbeat = setInterval(() => {
      if (renewing) return;
      renewing = true;
      this.renew(em, operationId, owner)
        .catch((err: unknown) =>
          this.deps.logger.warn({ err, operationId }, 'lease renewal failed'),
        )
        .finally(() => {
          renewing = false;
        });
    }, this.deps.leaseMs / 3);
    try {
      const outcome = await this.read(claimed);
      await this.settle(em, claimed, outcome);
    } finally {
      clearInterval(heartbeat);
    }
  }

  /** Ends an operation as FAILED without reading (an admin gave up on it): a full refund. */
  async fail(em: EntityManager, operationId: string, error: OperationErrorBody): Promise<boolean> {
    const [row] = await em.execute<{ tenant_id: string; credits_reserved: string }[]>(
      `select tenant_id, credits_reserved from operation where id = ?`,
      [operationId],
    );
    if (!row) return false;
    return this.settle(
      em,
      { id: operationId, tenantId: row.tenant_id, reserved: Number(row.credits_reserved) },
      { status: 'FAILED', error },
    );
  }

  private async claim(
    em: EntityManager,
    operationId: string,
    from: AttemptFrom,
    owner: string,
  ): Promise<Claimed | null> {
    const [row] = await em.execute<
      {
        id: string;
        tenant_id: string;
        operation_name: string;
        input: unknown;
        credits_reserved: string;
        price_base: number | null;
        price_per_item: number | null;
      }[]
    >(
      `update operation set attempt_owner = ?, attempts = attempts + 1,
         lease_expires_at = now() + make_interval(secs => ?), updated_at = now()
       where id = ? and status = ?
       returning id, tenant_id, operation_name, input, credits_reserved, price_base, price_per_item`,
      [owner, this.deps.leaseMs / 1000, operationId, from],
    );
    if (!row) return null;
    return {
      id: row.id,
      tenantId: row.tenant_id,
      operationName: row.operation_name,
      input: row.input,
      reserved: Number(row.credits_reserved),
      price:
        row.price_base === null || row.price_per_item === null
          ? null
          : { base: row.price_base, perItem: row.price_per_item },
    };
  }

  private async renew(em: EntityManager, operationId: string, owner: string): Promise<void> {
    await em.execute(
      `update operation set lease_expires_at = now() + make_interval(secs => ?)
       where id = ? and attempt_owner = ? and status in ('RUNNING', 'RECONCILIATION_REQUIRED')`,
      [this.deps.leaseMs / 1000, operationId, owner],
    );
  }

  private async read(claimed: Claimed): Promise<Outcome> {
    const definition = this.deps.definitions.get(claimed.operationName);
    let input: unknown;
    try {
      if (!definition) throw new Error(`unknown operation ${claimed.operationName}`);
      input = definition.parseInput(claimed.input);
    } catch (err) {
      // The input was valid when the operation was accepted: this is our failure, not the caller's.
      this.deps.logger.error({ err, operationId: claimed.id }, 'stored input no longer readable');
      return { status: 'FAILED', error: errorBody('EXECUTION_FAILED', UNEXPECTED) };
    }
    try {
      const result = await definition.execute(input, {
        upstream: this.deps.upstream,
        tenantId: claimed.tenantId,
      });
      return {
        status: 'SUCCEEDED',
        result: result.data,
        charged: chargeAt(
          claimed.price ?? this.deps.prices.of(definition),
          result.itemCount,
          claimed.reserved,
        ),
        observedAccounts: result.observedAccounts,
      };
    } catch (err) {
      const error = failureOf(err);
      if (error.code === 'EXECUTION_FAILED')
        this.deps.logger.error({ err, operationId: claimed.id }, 'execution failed');
      return { status: 'FAILED', error };
    }
  }

  private async settle(
    em: EntityManager,
    claimed: Pick<Claimed, 'id' | 'tenantId' | 'reserved'>,
    outcome: Outcome,
  ): Promise<boolean> {
    const succeeded = outcome.status === 'SUCCEEDED';
    const charged = succeeded ? outcome.charged : 0;
    const observedAt = new Date();
    const won = await em.transactional(async (tx) => {
      const rows = await tx.execute<{ id: string }[]>(
        `update operation set status = ?, result = ?, error = ?, observed_at = ?,
           credits_charged = ?, credits_refunded = ?, attempt_owner = null, updated_at = now()
         where id = ? and status in ('RUNNING', 'RECONCILIATION_REQUIRED') returning id`,
        [
          outcome.status,
          succeeded ? JSON.stringify(outcome.result) : null,
          succeeded ? null : JSON.stringify(outcome.error),
          succeeded ? observedAt : null,
          charged,
          claimed.reserved - charged,
          claimed.id,
        ],
      );
      if (rows.length === 0) return false;
      if (succeeded) await this.deps.observations.record(tx, outcome.observedAccounts, observedAt);
      await this.deps.credits.settle(tx, claimed.tenantId, claimed.id, claimed.reserved, charged);
      return true;
    });
    this.deps.events.finished(claimed.id);
    return won;
  }
}

const UNEXPECTED = 'The execution failed unexpectedly; it was not charged.';

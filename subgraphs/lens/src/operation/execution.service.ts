import { errorBody } from '@campaign/schema';
import { inQueuedSpan, runPrepared, type Logger, type PreparedSqlStore } from '@campaign/platform';
import type { AccountObservationService } from '../account/account-observation.service.js';
import type { LensOperations } from '../account/lens-operations.js';
import type { AccountSummary, SocialUpstream } from '../upstream/upstream.port.js';
import type { OperationErrorBody } from './operation.entity.js';
import type { OperationEvents } from './operation-events.js';
import { recordOf, type OperationRecord, type OperationRow } from './operation-record.js';
import { chargeAt, type PriceBook } from './prices.js';
import { failureOf } from './upstream-errors.js';
import { CLAIM, RENEW, SETTLE } from './operation.repository.js';
import { recordSettled } from './operation-metrics.js';

/** The statuses an attempt may start from: a fresh execution, or a reconciliation. */
export type AttemptFrom = 'RUNNING' | 'RECONCILIATION_REQUIRED';

/** What an attempt needs of its operation (the row it claimed or started). */
export type Claimed = Pick<
  OperationRecord,
  'id' | 'tenantId' | 'operationName' | 'input' | 'creditsReserved' | 'price'
>;

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
  observations: AccountObservationService;
  events: OperationEvents;
  leaseMs: number;
}

/**
 * One attempt at an operation: it owns the operation's lease (renewed every third of it while it
 * reads), reads, then settles with one statement (`lens_settle_operation`: status, result, ledger
 * entries, balance) and records the accounts it saw after that, outside the money transaction.
 * The first attempt to settle wins: the update is conditional on the operation not being
 * terminal yet, and credits move only when it matched, so a repeated or concurrent attempt (the
 * reconciler's job, an admin) can never settle twice.
 *
 * A billed call runs its attempt inline (`runInline`, the lease taken by the start statement);
 * the job runner and admins claim theirs (`attempt`). A process that dies mid-attempt leaves a
 * RUNNING operation whose lease runs out: the reconciler then hands it to a durable job.
 */
export class ExecutionService {
  private readonly inline = new Set<Promise<unknown>>();

  constructor(private readonly deps: ExecutionDependencies) {}

  /** Runs an attempt as `owner`; does nothing when the operation is no longer in `from`. */
  async attempt(db: PreparedSqlStore, operationId: string, from: AttemptFrom, owner: string) {
    const [row] = await runPrepared<OperationRow>(db, CLAIM, [
      owner,
      this.deps.leaseMs,
      operationId,
      from,
    ]);
    if (!row) return;
    // A job's attempt, shown in the trace of the request that started the operation (issue 26).
    await inQueuedSpan(
      `lens attempt ${row.operation_name}`,
      row.trace_context,
      {
        'lens.operation.id': row.id,
        'lens.operation.name': row.operation_name,
        'lens.attempt.from': from,
      },
      () => this.run(db, recordOf(row), owner),
    );
  }

  /**
   * Runs the attempt the start statement leased to `owner` in this process, without a job hop.
   * Resolves with the settled operation (null when another attempt settled it first, or the
   * settlement failed and the lease will expire); never rejects.
   */
  runInline(
    db: PreparedSqlStore,
    claimed: Claimed,
    owner: string,
  ): Promise<OperationRecord | null> {
    const running = this.run(db, claimed, owner).catch((err: unknown) => {
      // The operation stays RUNNING; its lease runs out and the reconciler resolves it.
      this.deps.logger.error({ err, operationId: claimed.id }, 'inline execution failed');
      return null;
    });
    this.inline.add(running);
    void running.finally(() => this.inline.delete(running));
    return running;
  }

  /** Waits for the inline attempts of this process, at most `ms` (a stop leaves the rest to leases). */
  async drain(ms: number): Promise<void> {
    await Promise.race([
      Promise.allSettled([...this.inline]),
      new Promise((resolve) => setTimeout(resolve, ms).unref()),
    ]);
  }

  /** Ends an operation as FAILED without reading (an admin gave up on it): a full refund. */
  async fail(
    db: PreparedSqlStore,
    operationId: string,
    error: OperationErrorBody,
  ): Promise<boolean> {
    return (await this.settle(db, operationId, { status: 'FAILED', error })) !== null;
  }

  private async run(
    db: PreparedSqlStore,
    claimed: Claimed,
    owner: string,
  ): Promise<OperationRecord | null> {
    // A failed renewal (database unreachable) is logged and tried again at the next beat; one
    // still waiting is not doubled, so an outage does not stack renewals on the pool. If the
    // lease runs out meanwhile, the reconciler takes the operation over (first settlement wins).
    let renewing = false;
    const heartbeat = setInterval(() => {
      if (renewing) return;
      renewing = true;
      runPrepared(db, RENEW, [this.deps.leaseMs, claimed.id, owner])
        .catch((err: unknown) =>
          this.deps.logger.warn({ err, operationId: claimed.id }, 'lease renewal failed'),
        )
        .finally(() => {
          renewing = false;
        });
    }, this.deps.leaseMs / 3);
    try {
      const outcome = await this.read(claimed);
      return await this.settle(db, claimed.id, outcome);
    } finally {
      clearInterval(heartbeat);
    }
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
          Number(claimed.creditsReserved),
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

  /** The settlement statement, then (when it won) the observations; null when it lost. */
  private async settle(
    db: PreparedSqlStore,
    operationId: string,
    outcome: Outcome,
  ): Promise<OperationRecord | null> {
    const succeeded = outcome.status === 'SUCCEEDED';
    const observedAt = new Date();
    const [row] = await runPrepared<OperationRow>(db, SETTLE, [
      operationId,
      outcome.status,
      succeeded ? JSON.stringify(outcome.result) : null,
      succeeded ? null : JSON.stringify(outcome.error),
      succeeded ? observedAt.toISOString() : null,
      succeeded ? outcome.charged : 0,
    ]);
    if (row) recordSettled(row);
    try {
      if (row && succeeded) {
        await this.deps.observations
          .record(db, outcome.observedAccounts, observedAt)
          .catch((err: unknown) =>
            // A cache of what was seen: the operation and its credits are settled already.
            this.deps.logger.warn({ err, operationId }, 'account observations not recorded'),
          );
      }
    } finally {
      this.deps.events.finished(operationId);
    }
    return row ? recordOf(row) : null;
  }
}

const UNEXPECTED = 'The execution failed unexpectedly; it was not charged.';

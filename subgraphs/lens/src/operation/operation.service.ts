import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import {
  annotateSpan,
  currentTraceparent,
  rateLimitVerdict,
  runPrepared,
  type PreparedSqlStore,
} from '@campaign/platform';
import { PlatformError } from '@campaign/schema';
import { LENS_LIMITS } from '@campaign/schema';
import type { LensOperations } from '../account/lens-operations.js';
import type { Caller } from '../tenant/tenant.service.js';
import type { AccessPolicy } from './access-policy.js';
import { inputHash } from './canonical.js';
import {
  COUNT_REQUEST,
  CREDENTIAL_SPENT,
  OPERATION_BY_ID,
  OPERATION_OF_TENANT,
  shownDurably,
  START,
  type StartAnswer,
} from './operation.repository.js';
import type { ExecutionService } from './execution.service.js';
import type { OperationDefinition } from './operation-definition.js';
import {
  envelopeOf,
  recordOf,
  type EnvelopeRow,
  type OperationEnvelope,
  type OperationRecord,
  type RecordRow,
} from './operation-record.js';
import type { OperationEvents } from './operation-events.js';
import type { PriceBook } from './prices.js';

export interface OperationOutcome {
  operation: OperationRecord;
  replayed: boolean;
}

export interface EngineSettings {
  syncBudgetMs: number;
  leaseMs: number;
  /**
   * Whether an accepted operation runs at once in this process (true in the subgraph). False
   * leaves it RUNNING with its lease, as a process that died right after the start would: the
   * service tests of the start path use that.
   */
  inline: boolean;
}

export interface EngineParts {
  definitions: LensOperations;
  execution: ExecutionService;
  access: AccessPolicy;
  prices: PriceBook;
  events: OperationEvents;
}

const IDEMPOTENCY_KEY = LENS_LIMITS.idempotencyKey;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** How often a waiting request looks at its operation when the news may come from elsewhere. */
const POLL_MS = 250;
/**
 * The rate limit (DESIGN.md L8): per tenant, shared by its credentials, `rateLimitPerMinute` of
 * the tenant in the one-minute window that the start statement keeps on the tenant row
 * (migration tenant_rate_window, which counts per minute as the column says).
 */
const RATE_WINDOW_SECONDS = 60;
const RATE_LIMIT_SUBJECT = 'for this account';
/** The owner of the attempts this process runs inline (the lease names it). */
const INLINE_OWNER = `${hostname()}:${process.pid}:inline`;

/**
 * The billed, idempotent execution of every lens operation, checks in the order of DESIGN.md L2:
 * input and Idempotency-Key (400), credential (401), disabled/plan/permission (403), rate limit
 * (429), idempotency (replay or 409), reservation (402). The rate-limit count, idempotency and
 * reservation are one statement (`lens_start_operation`), which returns a refusal rather than
 * raising it so that the count stays: a replay is answered from its unique-index look-up,
 * writing nothing but the count; a new operation is inserted with its reservation, its ledger entry and the lease of
 * the attempt that this process then runs inline. The request waits for that attempt up to the
 * sync budget (L4) and answers with the operation in whatever state it is; an attempt that
 * outlives the request goes on here, and one whose process died is found by the reconciler when
 * its lease runs out (docs/lens-engine.md section 6).
 */
export class OperationService {
  constructor(
    private readonly parts: EngineParts,
    private readonly settings: EngineSettings,
  ) {}

  /** Runs `operationName` (lens spec section 4) for the caller that `authenticate` finds. */
  async run(
    db: PreparedSqlStore,
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
    const { tenant, apiKeyId, creditsCap } = await authenticate();
    definition.validate?.(input, { tenantId: tenant.id });
    this.parts.access.check(tenant, definition.name);
    // The start statement counts the request itself; a capped credential's cap is checked after
    // the count and before the start (L2), so its count is a statement of its own.
    const counted = creditsCap === null;
    if (!counted) {
      const [count] = await runPrepared<StartAnswer>(db, COUNT_REQUEST, [tenant.id]);
      this.judgeRate(count!);
      await this.withinCap(db, apiKeyId, creditsCap, definition, input);
    }
    const { operation, replayed } = await this.start(
      db,
      { tenantId: tenant.id, credentialId: apiKeyId },
      definition,
      idempotencyKey,
      input,
      counted,
    );
    if (operation.status !== 'RUNNING') return { operation, replayed };
    if (!replayed && this.settings.inline) {
      const settled = await this.within(
        deadline,
        this.parts.execution.runInline(db, operation, INLINE_OWNER),
      );
      // null: the budget ran out (202), or another attempt settled it first (read it below).
      if (settled) return { operation: settled, replayed };
    }
    const current = await this.waitWhileRunning(db, operation, deadline);
    await shownDurably(db, [current.status]);
    return { operation: current, replayed };
  }

  async findForTenant(
    db: PreparedSqlStore,
    tenantId: string,
    operationId: string,
  ): Promise<OperationEnvelope> {
    const [found] = UUID.test(operationId)
      ? await runPrepared<EnvelopeRow>(db, OPERATION_OF_TENANT, [operationId, tenantId])
      : [];
    if (!found) {
      throw new PlatformError(
        'OPERATION_NOT_FOUND',
        `No operation ${operationId} for this API key.`,
      );
    }
    const operation = envelopeOf(found);
    await shownDurably(db, [operation.status]);
    return operation;
  }

  /**
   * A capped credential (an OAuth connection) may start a call only while what it has spent plus
   * this call's reservation stays within its cap (issue 25). Checked before the start statement:
   * two concurrent calls may both pass; each is still bounded by the tenant's balance.
   */
  private async withinCap<I>(
    db: PreparedSqlStore,
    credentialId: string,
    cap: number,
    definition: OperationDefinition<I>,
    input: I,
  ): Promise<void> {
    const [row] = await runPrepared<{ spent: string }>(db, CREDENTIAL_SPENT, [credentialId]);
    const spent = Number(row?.spent ?? 0);
    const reserved = this.parts.prices.reservation(definition, input);
    if (spent + reserved > cap) {
      throw new PlatformError(
        'CREDITS_CAP_EXCEEDED',
        `This connection's credits cap is ${cap} credits; it has spent ${spent} and ` +
          `${definition.name} needs ${reserved} more. The account holder can connect again ` +
          'with a higher cap.',
      );
    }
  }

  /** Inserts the operation with its reservation, or finds the one this key already started. */
  private async start<I>(
    db: PreparedSqlStore,
    { tenantId, credentialId }: { tenantId: string; credentialId: string },
    definition: OperationDefinition<I>,
    idempotencyKey: string,
    input: I,
    count: boolean,
  ): Promise<OperationOutcome> {
    const hash = inputHash(definition.name, input);
    const price = this.parts.prices.of(definition);
    const reserved = this.parts.prices.reservation(definition, input);
    const id = randomUUID();
    const [row] = await runPrepared<RecordRow & StartAnswer>(db, START, [
      id,
      tenantId,
      idempotencyKey,
      definition.name,
      JSON.stringify(input),
      hash,
      reserved,
      price.base,
      price.perItem,
      this.settings.leaseMs,
      this.settings.inline ? INLINE_OWNER : null,
      // A later attempt (a job after the reconciler) continues this request's trace (issue 26).
      currentTraceparent(),
      credentialId,
      count,
    ]);
    if (count) this.judgeRate(row!);
    if (row!.refusal === 'INSUFFICIENT_CREDITS') {
      throw new PlatformError(
        'INSUFFICIENT_CREDITS',
        `${definition.name} needs ${reserved} credits reserved; top up the balance and retry.`,
      );
    }
    const operation = recordOf(row!);
    annotateSpan({
      'lens.operation.id': operation.id,
      'lens.operation.name': definition.name,
      'lens.operation.replayed': operation.id !== id,
    });
    if (operation.id === id) return { operation, replayed: false };
    if (operation.operationName !== definition.name || operation.inputHash !== hash) {
      throw new PlatformError(
        'IDEMPOTENCY_KEY_REUSED',
        'This Idempotency-Key was used with a different operation or input; use a new key for a new request.',
      );
    }
    return { operation, replayed: true };
  }

  /** Throws RATE_LIMITED when the count the start (or `COUNT_REQUEST`) made is past the limit. */
  private judgeRate(count: StartAnswer): void {
    rateLimitVerdict(
      Number(count.rate_hits),
      Number(count.rate_reset),
      { limit: Number(count.rate_limit), windowSeconds: RATE_WINDOW_SECONDS },
      RATE_LIMIT_SUBJECT,
    );
  }

  /** `settled`, or null when the deadline passes first. */
  private async within<T>(deadline: number, settled: Promise<T | null>): Promise<T | null> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<null>((resolve) => {
      timer = setTimeout(() => resolve(null), Math.max(0, deadline - Date.now()));
    });
    try {
      return await Promise.race([settled, late]);
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * The operation once it leaves RUNNING or when the deadline passes, whichever is first: a
   * replay of an operation running here or in another process (news from this process comes
   * at once, from another at the next poll).
   */
  private async waitWhileRunning(
    db: PreparedSqlStore,
    operation: OperationRecord,
    deadline: number,
  ): Promise<OperationRecord> {
    let current = operation;
    for (;;) {
      const remaining = deadline - Date.now();
      if (current.status !== 'RUNNING' || remaining <= 0) return current;
      await this.parts.events.next(current.id, Math.min(remaining, POLL_MS));
      const [row] = await runPrepared<RecordRow>(db, OPERATION_BY_ID, [current.id]);
      current = recordOf(row!);
    }
  }
}

import { startJobRunner } from '../job-runner.js';
import type { RunnerHealth } from '../worker-supervisor.js';
import type { Logger } from '../logger.js';
import { OutboxDelivery, type DeliveryHandler } from './delivery.js';
import { retryPolicy, type OutboxConfig } from './outbox-config.js';
import type { Execute, OutboxRepository } from './outbox.repository.js';

export interface OutboxWorkerOptions<Channel extends string> {
  connectionString: string;
  config: OutboxConfig;
  repository: OutboxRepository<Channel>;
  handlers: Record<Channel, DeliveryHandler<Channel>>;
  logger: Logger;
  /** Runs one statement on the service's own connections (a fresh `em.execute`), for sweeps. */
  execute: Execute;
}

export interface OutboxWorker {
  health(): RunnerHealth;
  stop(): Promise<void>;
}

/** Rows re-queued by one sweep, oldest first; the next sweep takes the rest. */
const SWEEP_BATCH = 200;

/**
 * Delivery of a service's outbox inside its process: graphile-worker jobs (one per row, queued
 * with the row) run by the platform's supervised runner, plus a sweep that gives a fresh job to
 * any due row whose job was lost. Every replica runs both.
 */
export async function startOutboxWorker<Channel extends string>(
  options: OutboxWorkerOptions<Channel>,
): Promise<OutboxWorker> {
  const delivery = new OutboxDelivery({
    repository: options.repository,
    handlers: options.handlers,
    policy: retryPolicy(options.config),
    leaseMs: options.config.OUTBOX_LEASE_MS,
    logger: options.logger,
  });
  const runner = await startJobRunner({
    connectionString: options.connectionString,
    concurrency: options.config.OUTBOX_CONCURRENCY,
    logger: options.logger,
    // Retries are jobs scheduled for later; the poll is what finds them when their time comes.
    pollIntervalMs: 1_000,
    taskList: {
      // withPgClient lends a pool connection for one short transaction at a time: none is held
      // while the outside system answers.
      [options.repository.definition.task]: (payload, helpers) =>
        delivery.deliver((work) => helpers.withPgClient(work), outboxIdOf(payload)),
    },
  });
  const sweeper = new OutboxSweeper(options.repository, options.execute, options.logger);
  sweeper.start(options.config.OUTBOX_SWEEP_INTERVAL_MS);
  return {
    health: () => runner.health(),
    stop: async () => {
      await sweeper.stop();
      await runner.stop();
    },
  };
}

function outboxIdOf(payload: unknown): string {
  const id = (payload as { id?: unknown } | null)?.id;
  if (typeof id !== 'string') throw new Error(`outbox job without id: ${JSON.stringify(payload)}`);
  return id;
}

/**
 * The safety net of the wake-up: a PENDING row due for longer than one interval and not leased
 * has lost its job (a process killed mid-send leaves its job locked for graphile-worker's 4 hours
 * and its lease to run out; a row written before delivery existed never had one). It gets a new
 * job under its key; graphile-worker lets a job still locked finish and never retries it, so the
 * new one is the row's only live job. Harmless when the row is merely waiting in a busy queue:
 * its waiting job is replaced by an identical one.
 */
export class OutboxSweeper {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<unknown> = Promise.resolve();
  private stopped = true;
  private failures = 0;
  private graceMs = 30_000;

  constructor(
    private readonly repository: OutboxRepository,
    private readonly execute: Execute,
    private readonly logger: Logger,
  ) {}

  /** One sweep; returns how many rows got a new job. */
  async sweep(): Promise<number> {
    const ids = await this.repository.requeueOverdue(this.execute, this.graceMs, SWEEP_BATCH);
    if (ids.length) this.logger.warn({ outboxIds: ids }, 'overdue outbox messages re-queued');
    return ids.length;
  }

  /**
   * Sweeps every `intervalMs` (the first one soon after start, for rows left from before), each
   * timed from the end of the previous, so sweeps waiting on an unreachable database never pile
   * up; a failed sweep is logged once per outage and tried again at the next tick.
   */
  start(intervalMs: number): void {
    this.stopped = false;
    this.graceMs = intervalMs;
    const tick = async () => {
      try {
        await this.sweep();
        if (this.failures > 0) this.logger.warn('outbox sweeps work again');
        this.failures = 0;
      } catch (err) {
        this.failures++;
        if (this.failures === 1) this.logger.error({ err }, 'outbox sweep failed');
        else this.logger.debug({ err, failures: this.failures }, 'outbox sweep failed');
      }
    };
    const schedule = (delayMs: number) => {
      if (this.stopped) return;
      this.timer = setTimeout(() => {
        this.running = tick().finally(() => schedule(intervalMs));
      }, delayMs);
      this.timer.unref();
    };
    schedule(Math.min(intervalMs, 1_000));
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running;
  }
}

import type { EntityManager } from '@mikro-orm/postgresql';
import { startJobRunner, type Logger, type RunnerHealth } from '@campaign/platform';
import type { ChannelHandlers } from './channel-handler.js';
import { DeliveredMemory, deliverOutboxRow } from './delivery.js';
import { retryPolicy, type OutboxConfig } from './outbox-config.js';
import { DELIVER_OUTBOX_TASK, DELIVERY_JOB_MAX_ATTEMPTS, OUTBOX_JOB_KEY_PREFIX } from './outbox.js';

export interface OutboxWorkerOptions {
  connectionString: string;
  config: OutboxConfig;
  handlers: ChannelHandlers;
  logger: Logger;
  em: () => EntityManager;
}

export interface OutboxWorker {
  health(): RunnerHealth;
  stop(): Promise<void>;
}

/** Rows re-queued by one sweep, oldest first; the next sweep takes the rest. */
const SWEEP_BATCH = 200;

/**
 * Delivery of the outbox inside the settlement subgraph process: graphile-worker jobs (one per
 * row, queued with the row) run by the platform's supervised runner, plus a sweep that gives a
 * fresh job to any due row whose job was lost. Every replica runs both.
 */
export async function startOutboxWorker(options: OutboxWorkerOptions): Promise<OutboxWorker> {
  const deps = {
    handlers: options.handlers,
    policy: retryPolicy(options.config),
    delivered: new DeliveredMemory(),
    logger: options.logger,
  };
  const runner = await startJobRunner({
    connectionString: options.connectionString,
    concurrency: options.config.OUTBOX_CONCURRENCY,
    logger: options.logger,
    // Retries are jobs scheduled for later; the poll is what finds them when their time comes.
    pollIntervalMs: 1_000,
    taskList: {
      [DELIVER_OUTBOX_TASK]: (payload, helpers) =>
        helpers.withPgClient((client) => deliverOutboxRow(client, outboxIdOf(payload), deps)),
    },
  });
  const sweeper = new OutboxSweeper(options.em, options.logger);
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
 * The safety net of the wake-up: a PENDING row due for longer than one interval has lost its job
 * (a process killed mid-send leaves its job locked for graphile-worker's 4 hours; a row written
 * before delivery existed never had one). It gets a new job under its key; graphile-worker lets
 * a job still locked finish and never retries it, so the new one is the row's only live job.
 * Rows being sent are locked and skipped. Harmless when the row is merely waiting in a busy
 * queue: its waiting job is replaced by an identical one.
 */
export class OutboxSweeper {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<unknown> = Promise.resolve();
  private stopped = true;
  private failures = 0;
  private graceMs = 30_000;

  constructor(
    private readonly em: () => EntityManager,
    private readonly logger: Logger,
  ) {}

  /** One sweep; returns how many rows got a new job. */
  async sweep(): Promise<number> {
    const rows = await this.em().execute<{ id: string }[]>(
      `select due.id, graphile_worker.add_job(?, json_build_object('id', due.id),
         job_key => ? || due.id, max_attempts => ?) is not null as queued
       from (select id::text as id from outbox
              where status = 'PENDING' and available_at < now() - ? * interval '1 millisecond'
              order by available_at limit ? for update skip locked) due`,
      [
        DELIVER_OUTBOX_TASK,
        OUTBOX_JOB_KEY_PREFIX,
        DELIVERY_JOB_MAX_ATTEMPTS,
        this.graceMs,
        SWEEP_BATCH,
      ],
    );
    if (rows.length) {
      this.logger.warn({ outboxIds: rows.map((r) => r.id) }, 'overdue outbox messages re-queued');
    }
    return rows.length;
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

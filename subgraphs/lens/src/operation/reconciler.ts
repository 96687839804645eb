import type { EntityManager } from '@mikro-orm/postgresql';
import type { Logger } from '@campaign/platform';
import { JOB_MAX_ATTEMPTS, RECONCILE_TASK } from './job-queue.js';
import { expireLeases } from './operation.repository.js';

const BATCH = 100;

/**
 * DESIGN.md L6: a RUNNING operation whose lease expired (its worker died, or hung past the lease
 * without a heartbeat) has an unknown outcome. The sweep moves it to RECONCILIATION_REQUIRED and,
 * in the same statement, queues a durable job that resolves it by reading again (reads are safe
 * to repeat). Every replica sweeps; `skip locked` keeps them from taking the same rows.
 */
export class Reconciler {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<unknown> = Promise.resolve();
  private stopped = true;
  private failures = 0;

  constructor(
    private readonly em: () => EntityManager,
    private readonly logger: Logger,
  ) {}

  /** One sweep; returns how many operations moved to RECONCILIATION_REQUIRED. */
  async sweep(): Promise<number> {
    const rows = await expireLeases(this.em(), BATCH, RECONCILE_TASK, JOB_MAX_ATTEMPTS);
    if (rows.length) {
      this.logger.warn(
        { operationIds: rows.map((r) => r.id) },
        'operations with an expired lease moved to RECONCILIATION_REQUIRED',
      );
    }
    return rows.length;
  }

  /**
   * Sweeps every `intervalMs`, the next sweep timed from the end of the previous one: a sweep
   * that waits on an unreachable database never overlaps the next, and a failed sweep (the
   * database is down) is logged and retried at the next tick, never ending the loop.
   */
  start(intervalMs: number): void {
    this.stopped = false;
    const tick = async () => {
      try {
        await this.sweep();
        if (this.failures > 0) {
          this.logger.warn({ failures: this.failures }, 'reconciliation sweeps work again');
        }
        this.failures = 0;
      } catch (err) {
        this.failures++;
        // One line per outage at error level, then quieter: a sweep fails every interval.
        if (this.failures === 1) this.logger.error({ err }, 'reconciliation sweep failed');
        else this.logger.debug({ err, failures: this.failures }, 'reconciliation sweep failed');
      }
    };
    const schedule = () => {
      if (this.stopped) return;
      this.timer = setTimeout(() => {
        this.running = tick().finally(schedule);
      }, intervalMs);
      this.timer.unref();
    };
    schedule();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running;
  }
}

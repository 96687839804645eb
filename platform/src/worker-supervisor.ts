import type { Runner } from 'graphile-worker';
import type { Logger } from './logger.js';

export interface SupervisorOptions {
  /** Starts a graphile-worker runner; throws while the database is unreachable. */
  launch: () => Promise<Runner>;
  /**
   * Frees the jobs that dead workers still hold: graphile-worker frees a job locked by a worker
   * that is gone only after 4 hours (lens: a locked reconcile job is never swept by the
   * reconciler; settlement: a message would wait that long).
   */
  unlockWorkers: (workerIds: string[]) => Promise<void>;
  logger: Logger;
  /** First delay before starting a replacement, doubled after each failed start. */
  minBackoffMs?: number;
  /** The longest delay between two starts: bounds the time to recover after the database is back. */
  maxBackoffMs?: number;
  /**
   * A replacement that has not started by then counts as a failed start (and is stopped if it
   * ever does): a start hanging on a half-open database connection would otherwise hold the
   * service "not ready" long after the database is back. Default 10 s.
   */
  launchTimeoutMs?: number;
}

export type RunnerHealth = { ok: true } | { ok: false; reason: string };

type State = 'idle' | 'running' | 'restarting' | 'stopped';

/**
 * Keeps a graphile-worker runner alive (lens executions, settlement outbox delivery; started
 * through `startJobRunner`). graphile-worker 0.16 does not replace a worker that
 * exits (a worker whose job release fails, e.g. because the database went away, ends itself), so
 * after a database outage a runner can look alive and run nothing. The supervisor treats any exit
 * of a worker, a lost LISTEN connection or the end of the runner's promise as the death of the
 * runner: it retires it (in the background: its running jobs may still finish) and starts a new
 * one, with back-off while the database stays unreachable. `health()` feeds `/readyz`.
 */
export class WorkerSupervisor {
  private state: State = 'idle';
  private current: Runner | null = null;
  private listening = false;
  private reason = 'not started';
  private failures = 0;
  private timer: NodeJS.Timeout | null = null;
  private readonly deadWorkers = new Set<string>();
  private readonly retiring = new Set<Promise<void>>();
  private readonly minBackoffMs: number;
  private readonly maxBackoffMs: number;
  private readonly launchTimeoutMs: number;
  /** How many replacement runners were started (for logs and tests). */
  restarts = 0;

  constructor(private readonly options: SupervisorOptions) {
    this.minBackoffMs = options.minBackoffMs ?? 200;
    this.maxBackoffMs = options.maxBackoffMs ?? 3_000;
    this.launchTimeoutMs = options.launchTimeoutMs ?? 10_000;
  }

  /** Starts the first runner; throws (like any start-up failure) when it cannot. */
  async start(): Promise<void> {
    if (this.state !== 'idle') throw new Error(`worker supervisor already ${this.state}`);
    const runner = await this.options.launch();
    this.adopt(runner);
  }

  health(): RunnerHealth {
    if (this.state === 'running' && this.current && this.listening) return { ok: true };
    if (this.state === 'running') return { ok: false, reason: 'job runner not connected yet' };
    return { ok: false, reason: `job runner ${this.state}: ${this.reason}` };
  }

  /** Stops the current runner and waits for the retiring ones (their jobs finish or fail). */
  async stop(): Promise<void> {
    const runner = this.current;
    this.state = 'stopped';
    this.reason = 'the service is stopping';
    this.current = null;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (runner) this.retire(runner);
    await Promise.allSettled([...this.retiring]);
  }

  private adopt(runner: Runner): void {
    this.current = runner;
    this.state = 'running';
    this.listening = false;
    const isCurrent = () => this.current === runner && this.state === 'running';
    runner.events.on('pool:listen:success', () => {
      if (!isCurrent()) return;
      this.listening = true;
      this.failures = 0;
      void this.unlockDeadWorkers();
    });
    runner.events.on('pool:listen:error', ({ error }) => {
      if (isCurrent()) this.replace('its LISTEN connection to the database failed', error);
    });
    runner.events.on('worker:stop', ({ worker, error }) => {
      // A worker that ended with an error may have left its job locked, whichever runner it
      // belonged to; its task has returned, so nobody runs that job any more.
      if (error !== undefined) {
        this.deadWorkers.add(worker.workerId);
        if (!isCurrent() && this.state === 'running') void this.unlockDeadWorkers();
      }
      if (isCurrent()) this.replace(`worker ${worker.workerId} exited`, error);
    });
    runner.promise.then(
      () => {
        if (isCurrent()) this.replace('the runner stopped by itself');
      },
      (error: unknown) => {
        if (isCurrent()) this.replace('the runner failed', error);
      },
    );
  }

  /** Retires the current runner and schedules a new one. */
  private replace(reason: string, error?: unknown): void {
    const old = this.current;
    if (this.state !== 'running' || !old) return;
    this.state = 'restarting';
    this.current = null;
    this.listening = false;
    this.reason = reason;
    this.options.logger.error(
      { err: error },
      `job runner unhealthy (${reason}); starting a new one`,
    );
    this.retire(old);
    this.schedule();
  }

  private retire(runner: Runner): void {
    const stopped: Promise<void> = runner
      .stop()
      .catch((err: unknown) =>
        this.options.logger.debug({ err }, 'retired job runner did not stop cleanly'),
      )
      .finally(() => this.retiring.delete(stopped));
    this.retiring.add(stopped);
  }

  private schedule(): void {
    const delay = Math.min(this.maxBackoffMs, this.minBackoffMs * 2 ** this.failures);
    this.timer = setTimeout(() => void this.relaunch(), delay);
    this.timer.unref();
  }

  private async relaunch(): Promise<void> {
    this.timer = null;
    if (this.state !== 'restarting') return;
    let runner: Runner;
    try {
      runner = await this.launchWithin();
    } catch (err) {
      this.failures++;
      this.reason = `cannot start a new runner (attempt ${this.failures}): ${messageOf(err)}`;
      this.options.logger.warn({ err }, `job runner could not start; trying again`);
      if (this.state === 'restarting') this.schedule();
      return;
    }
    if (this.state !== 'restarting') {
      // Stopped while starting: this runner must not outlive the service.
      this.retire(runner);
      return;
    }
    this.restarts++;
    this.adopt(runner);
    this.options.logger.warn({ restarts: this.restarts }, 'job runner replaced');
  }

  /** launch(), given up after launchTimeoutMs; a runner that starts later is stopped at once. */
  private launchWithin(): Promise<Runner> {
    let timer: NodeJS.Timeout | undefined;
    let late = false;
    const launching = this.options.launch();
    launching.then(
      (runner) => {
        if (late) this.retire(runner);
      },
      () => undefined,
    );
    const timeout = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => {
        late = true;
        reject(new Error(`no runner within ${this.launchTimeoutMs} ms`));
      }, this.launchTimeoutMs);
      timer.unref();
    });
    return Promise.race([launching, timeout]).finally(() => clearTimeout(timer));
  }

  private async unlockDeadWorkers(): Promise<void> {
    const workerIds = [...this.deadWorkers];
    if (workerIds.length === 0) return;
    try {
      await this.options.unlockWorkers(workerIds);
      for (const id of workerIds) this.deadWorkers.delete(id);
      this.options.logger.warn({ workerIds }, 'released the jobs held by workers that died');
    } catch (err) {
      // Kept for the next healthy runner (lens's reconciler and settlement's outbox sweep also
      // cover their rows).
      this.options.logger.warn({ err, workerIds }, 'could not release the jobs of dead workers');
    }
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

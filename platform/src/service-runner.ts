import { ConfigError } from './config.js';

export interface Stoppable {
  close(): Promise<void>;
}

/**
 * Runs one service as a process: starts it, and on SIGINT, SIGTERM or the loss of the parent's
 * IPC channel (the parent died) closes it and exits, so no process outlives its orchestrator.
 */
export async function runService(
  name: string,
  start: () => Promise<Stoppable>,
  /** Stopped after the service (telemetry: the last spans are sent once nothing makes more). */
  after?: Stoppable,
): Promise<void> {
  let service: Stoppable;
  try {
    service = await start();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
    } else {
      console.error(`${name}: failed to start:`, error);
    }
    process.exit(1);
  }
  let stopping = false;
  const stop = async (reason: string) => {
    if (stopping) return;
    stopping = true;
    const timer = setTimeout(() => {
      console.error(`${name}: did not stop within 10 s after ${reason}; exiting`);
      process.exit(1);
    }, 10_000);
    timer.unref();
    try {
      await service.close();
      await after?.close();
    } finally {
      process.exit(0);
    }
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('disconnect', () => void stop('parent exit'));
  process.send?.({ type: 'ready', name });
}

/**
 * Logs a promise rejection that nobody handled instead of letting Node end the process (its
 * default since Node 15). For a service whose background loops (a job runner, timers) talk to a
 * database that can go away: one stray rejection there must not take down the API of the whole
 * process, which recovers by itself once the database is back. Services that do not call this
 * keep Node's default.
 */
export function survivesUnhandledRejections(
  name: string,
  log: (message: string, reason: unknown) => void = (message, reason) =>
    console.error(message, reason),
): void {
  process.on('unhandledRejection', (reason) => {
    log(`${name}: unhandled promise rejection (the service keeps running):`, reason);
  });
}

import { EventEmitter } from 'node:events';

/**
 * In-process news that an operation reached a terminal status, so a request waiting for it
 * within its sync budget answers at once instead of at its next poll.
 */
export class OperationEvents {
  private readonly emitter = new EventEmitter().setMaxListeners(0);

  finished(operationId: string): void {
    this.emitter.emit(operationId);
  }

  /** Resolves when `operationId` finishes in this process, or after `ms`, whichever is first. */
  next(operationId: string, ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.emitter.off(operationId, done);
        resolve();
      };
      const timer = setTimeout(done, Math.max(0, ms));
      this.emitter.once(operationId, done);
    });
  }
}

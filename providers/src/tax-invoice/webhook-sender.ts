import type { Logger } from '@campaign/platform';
import { signWebhook, WEBHOOK_SIGNATURE_HEADER } from '@campaign/platform';
import type { WebhookEvent } from './protocol.js';

export interface WebhookSenderOptions {
  url: string;
  secret: string;
  logger: Logger;
  /** Waits before the 2nd, 3rd, ... attempt; the length is the number of retries. */
  retryDelaysMs: readonly number[];
  /** Per attempt (connection to answer). */
  timeoutMs: number;
}

/** Retries after 1, 2, 4, 8 and 16 s: about half a minute in all, then the event is given up. */
export const DEFAULT_WEBHOOK_RETRY_DELAYS_MS = [1000, 2000, 4000, 8000, 16000] as const;

/**
 * Delivers webhook events: each attempt is signed afresh (the signature's time must be recent
 * when it arrives), any answer but 2xx and any network failure is retried after the next delay,
 * and an event that never got through is logged and dropped. A failed delivery never throws: the
 * platform's route may not be up yet, and the simulator must keep serving.
 */
export class WebhookSender {
  /** Pending retries, each with the function that ends its wait. */
  private readonly timers = new Map<NodeJS.Timeout, () => void>();
  private readonly inFlight = new Set<AbortController>();
  private closed = false;

  constructor(private readonly options: WebhookSenderOptions) {}

  /** Starts delivering (in the background); resolves when delivered or given up. */
  send(event: WebhookEvent): Promise<boolean> {
    const body = JSON.stringify(event);
    return this.attempt(event, body, 0);
  }

  close(): void {
    this.closed = true;
    for (const [timer, wake] of this.timers) {
      clearTimeout(timer);
      wake();
    }
    this.timers.clear();
    for (const controller of this.inFlight) controller.abort();
  }

  private async attempt(event: WebhookEvent, body: string, index: number): Promise<boolean> {
    if (this.closed) return false;
    const { url, secret, logger, retryDelaysMs } = this.options;
    const outcome = await this.post(body, secret);
    if (outcome === 'ok') {
      logger.info({ eventId: event.eventId, issuanceKey: event.issuanceKey }, 'webhook delivered');
      return true;
    }
    const delay = retryDelaysMs[index];
    if (delay === undefined || this.closed) {
      logger.error(
        {
          eventId: event.eventId,
          issuanceKey: event.issuanceKey,
          url,
          outcome,
          attempts: index + 1,
        },
        'webhook not delivered; giving up',
      );
      return false;
    }
    logger.warn(
      { eventId: event.eventId, issuanceKey: event.issuanceKey, url, outcome, retryInMs: delay },
      'webhook delivery failed; retrying',
    );
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        resolve();
      }, delay);
      // A pending retry never keeps a process alive on its own.
      timer.unref();
      this.timers.set(timer, resolve);
    });
    return this.attempt(event, body, index + 1);
  }

  /** 'ok' or a short description of what went wrong. */
  private async post(body: string, secret: string): Promise<string> {
    const controller = new AbortController();
    this.inFlight.add(controller);
    const timeout = setTimeout(() => controller.abort(), this.options.timeoutMs);
    try {
      const response = await fetch(this.options.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          [WEBHOOK_SIGNATURE_HEADER]: signWebhook(secret, body),
        },
        body,
        signal: controller.signal,
      });
      await response.arrayBuffer().catch(() => undefined);
      return response.ok ? 'ok' : `HTTP ${response.status}`;
    } catch (error) {
      return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    } finally {
      clearTimeout(timeout);
      this.inFlight.delete(controller);
    }
  }
}

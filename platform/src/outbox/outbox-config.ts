import { z } from 'zod';

const whole = (min: number, max: number, fallback: number) =>
  z.coerce.number().int().min(min).max(max).default(fallback);

/**
 * The delivery worker's settings, spread into a service's config schema. The defaults retry a
 * failing message after 15 s, 30 s, 1 min, ... (at most 30 min apart) and give up after the 8th
 * attempt, about half an hour after the first: long enough to ride out a restart of the mail
 * server, short enough that an admin sees a DEAD message the same day.
 */
export const outboxEnv = z.object({
  /** Attempts before a message ends DEAD (a final refusal ends it at once). */
  OUTBOX_MAX_ATTEMPTS: whole(1, 100, 8),
  /** Wait after the first failed attempt; doubled after each further one. */
  OUTBOX_RETRY_BASE_MS: whole(10, 3_600_000, 15_000),
  /** The longest wait between two attempts. */
  OUTBOX_RETRY_MAX_MS: whole(10, 86_400_000, 1_800_000),
  /** Messages one process sends at once. */
  OUTBOX_CONCURRENCY: whole(1, 50, 4),
  /**
   * How often each process looks for due messages whose job was lost (a process killed while
   * sending holds its job for graphile-worker's 4 hours); such a message waits at most about
   * twice this long after its lease ran out.
   */
  OUTBOX_SWEEP_INTERVAL_MS: whole(100, 3_600_000, 30_000),
  /**
   * How long a claimed message is reserved for the process sending it. Longer than any outside
   * call may take (the adapters give up after 10-15 s); when a process dies mid-send, another
   * sends the message (with the same Message-ID or issuance key) once this has passed.
   */
  OUTBOX_LEASE_MS: whole(1_000, 3_600_000, 120_000),
});

export type OutboxConfig = z.infer<typeof outboxEnv>;

/** When the next attempt may start after `attempts` failed ones (exponential back-off). */
export interface RetryPolicy {
  maxAttempts: number;
  /** Milliseconds to wait after `attempts` (>= 1) failures; `retryAfterSeconds` when asked. */
  delayMs(attempts: number, retryAfterSeconds: number | null): number;
}

export function retryPolicy(config: OutboxConfig): RetryPolicy {
  return {
    maxAttempts: config.OUTBOX_MAX_ATTEMPTS,
    delayMs: (attempts, retryAfterSeconds) => {
      const exponential = config.OUTBOX_RETRY_BASE_MS * 2 ** Math.min(attempts - 1, 30);
      const backoff = Math.min(config.OUTBOX_RETRY_MAX_MS, exponential);
      // A system that says when to come back is believed, within the same ceiling.
      const asked = retryAfterSeconds === null ? 0 : retryAfterSeconds * 1000;
      return Math.min(config.OUTBOX_RETRY_MAX_MS, Math.max(backoff, asked));
    },
  };
}

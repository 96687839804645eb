import { describe, expect, it } from 'vitest';
import { outboxEnv, retryPolicy } from './outbox-config.js';

describe('outbox retry policy', () => {
  it('doubles the wait after each failure up to the ceiling, 8 attempts by default', () => {
    const policy = retryPolicy(outboxEnv.parse({}));
    expect(policy.maxAttempts).toBe(8);
    expect([1, 2, 3, 4, 7, 8, 40].map((n) => policy.delayMs(n, null))).toEqual([
      15_000, 30_000, 60_000, 120_000, 960_000, 1_800_000, 1_800_000,
    ]);
  });

  it('honours Retry-After within the same ceiling', () => {
    const policy = retryPolicy(
      outboxEnv.parse({ OUTBOX_RETRY_BASE_MS: '100', OUTBOX_RETRY_MAX_MS: '5000' }),
    );
    expect(policy.delayMs(1, 2)).toBe(2000);
    expect(policy.delayMs(4, 0.1)).toBe(800);
    expect(policy.delayMs(1, 3600)).toBe(5000);
  });

  it('refuses settings outside their ranges', () => {
    expect(outboxEnv.safeParse({ OUTBOX_MAX_ATTEMPTS: '0' }).success).toBe(false);
    expect(outboxEnv.safeParse({ OUTBOX_CONCURRENCY: 'many' }).success).toBe(false);
  });
});

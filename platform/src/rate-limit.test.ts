import { describe, expect, it } from 'vitest';
import { PlatformError } from '@campaign/schema';
import { describeWindow, PostgresRateLimiter, rateLimitHeaders } from './rate-limit.js';

/** A store that answers the upsert with a fixed row: the SQL itself is tested on PostgreSQL. */
const answering = (hits: number, reset: number) =>
  ({
    getKnex: () => ({
      client: {
        acquireConnection: async () => ({
          query: async () => ({ rows: [{ hits, reset: String(reset) }] }),
        }),
        releaseConnection: async () => undefined,
      },
    }),
  }) as unknown as Parameters<PostgresRateLimiter['consume']>[0];

describe('rate limit', () => {
  it('names its window as a person would', () => {
    expect(describeWindow(60)).toBe('minute');
    expect(describeWindow(900)).toBe('15 minutes');
    expect(describeWindow(3600)).toBe('hour');
    expect(describeWindow(7200)).toBe('2 hours');
    expect(describeWindow(45)).toBe('45 seconds');
  });

  it('gives the IETF draft headers of a state', () => {
    expect(rateLimitHeaders({ limit: 30, windowSeconds: 900, remaining: 4, reset: 120 })).toEqual({
      rateLimitPolicy: '30;w=900',
      rateLimit: 'limit=30, remaining=4, reset=120',
    });
  });

  it('passes up to the limit, then refuses with Retry-After and the headers as extensions', async () => {
    const limiter = new PostgresRateLimiter({ subject: 'from this address' });
    const policy = { limit: 30, windowSeconds: 900 };
    await expect(limiter.consume(answering(30, 61), 'b', policy)).resolves.toEqual({
      limit: 30,
      windowSeconds: 900,
      remaining: 0,
      reset: 61,
    });
    const refusal = await limiter.consume(answering(31, 61), 'b', policy).catch((e) => e);
    expect(refusal).toBeInstanceOf(PlatformError);
    expect(refusal.message).toBe(
      'More than 30 requests per 15 minutes from this address; retry in 61 s.',
    );
    expect(refusal.extensions).toMatchObject({
      code: 'RATE_LIMITED',
      retryable: true,
      retryAfterSeconds: 61,
      rateLimitPolicy: '30;w=900',
      rateLimit: 'limit=30, remaining=0, reset=61',
    });
  });

  it('never says "retry in 0 s"', async () => {
    const limiter = new PostgresRateLimiter({ subject: 'x' });
    const state = await limiter.consume(answering(1, 0), 'b', { limit: 2, windowSeconds: 60 });
    expect(state.reset).toBe(1);
  });

  it('takes only a plain table name (it is written into the SQL)', () => {
    expect(
      () => new PostgresRateLimiter({ subject: 'x', table: 'limits; drop table x' }),
    ).toThrow();
  });
});

import type { EntityManager } from '@mikro-orm/postgresql';
import { describe, expect, it } from 'vitest';
import { PlatformError } from '@campaign/schema';
import {
  BUSINESS_VERIFY_LIMIT,
  BusinessStatusUnavailableError,
  createSettlementServices,
  type BusinessStatus,
} from '@campaign/settlement';
import { useServiceDatabase } from '../support/service-database.js';

/**
 * The public business verification (DESIGN.md S12) against real PostgreSQL, no services: the
 * platform's rate limiter over the settlement's `rate_limit_window`, and the order of its
 * checks (count, then format, then the authority). The authority is a stand-in that records
 * what it was asked.
 */
const orm = useServiceDatabase('settlement');
const asked: string[] = [];
let outage: BusinessStatusUnavailableError | null = null;
const services = createSettlementServices({
  outside: {
    businessStatus: {
      lookup: async (businessNumber): Promise<BusinessStatus> => {
        asked.push(businessNumber);
        if (outage) throw outage;
        return { businessNumber, registered: true, status: 'ACTIVE', closedAt: null, taxType: 'x' };
      },
    },
  },
});

let next = 0;
/** A client address of its own for each test. */
const address = () => `192.0.2.${++next}`;
const verify = (client: string, input: string) =>
  services.businessVerification.verify(orm().em.fork() as EntityManager, client, input);
const codeOf = (promise: Promise<unknown>) =>
  promise.then(
    () => 'OK',
    (error: unknown) => (error instanceof PlatformError ? error.code : String(error)),
  );

describe('business verification: one limit per client address', () => {
  it('30 pass in 15 minutes, the 31st is RATE_LIMITED with Retry-After and the headers', async () => {
    const client = address();
    for (let i = 0; i < BUSINESS_VERIFY_LIMIT.limit; i++)
      await expect(verify(client, '123-45-67891')).resolves.toMatchObject({ status: 'ACTIVE' });
    const refused = await verify(client, '1234567891').catch((error: PlatformError) => error);
    expect(refused).toBeInstanceOf(PlatformError);
    const extensions = (refused as PlatformError).extensions;
    expect(extensions).toMatchObject({
      code: 'RATE_LIMITED',
      rateLimitPolicy: '30;w=900',
      rateLimit: `limit=30, remaining=0, reset=${String(extensions['retryAfterSeconds'])}`,
    });
    expect(extensions['retryAfterSeconds']).toBeGreaterThan(890);
    expect(extensions['retryAfterSeconds']).toBeLessThanOrEqual(900);
    // Another address has its own count.
    expect(await codeOf(verify(address(), '1234567891'))).toBe('OK');
  });

  it('bad input counts, and is refused before the authority is asked', async () => {
    const client = address();
    asked.length = 0;
    const bad = ['', '12345', '1234567890', '123-45-6789', 'x'.repeat(10_000)];
    for (let i = 0; i < BUSINESS_VERIFY_LIMIT.limit; i++)
      expect(await codeOf(verify(client, bad[i % bad.length]!))).toBe('INVALID_BUSINESS_NUMBER');
    expect(asked).toEqual([]);
    expect(await codeOf(verify(client, '1234567891'))).toBe('RATE_LIMITED');
    expect(asked).toEqual([]);
  });

  it('concurrent requests from one address: exactly 30 pass', async () => {
    const client = address();
    const outcomes = await Promise.all(
      Array.from({ length: 45 }, () => codeOf(verify(client, '1234567891'))),
    );
    expect(outcomes.filter((o) => o === 'OK')).toHaveLength(30);
    expect(outcomes.filter((o) => o === 'RATE_LIMITED')).toHaveLength(15);
  });

  it('a new window starts once 15 minutes have passed', async () => {
    const client = address();
    for (let i = 0; i < 31; i++) await codeOf(verify(client, '1234567891'));
    expect(await codeOf(verify(client, '1234567891'))).toBe('RATE_LIMITED');
    await orm()
      .em.fork()
      .execute(
        `update rate_limit_window set window_start = now() - interval '15 minutes' where bucket = ?`,
        [`business_verify:${client}`],
      );
    expect(await codeOf(verify(client, '1234567891'))).toBe('OK');
    const [row] = await orm()
      .em.fork()
      .execute<{ hits: number }[]>(`select hits from rate_limit_window where bucket = ?`, [
        `business_verify:${client}`,
      ]);
    expect(row?.hits).toBe(1);
  });

  it("the authority's outage is 503 PROVIDER_UNAVAILABLE with its Retry-After, or 5 s", async () => {
    const client = address();
    try {
      outage = new BusinessStatusUnavailableError('TIMEOUT', 'tax authority timed out');
      const first = await verify(client, '1234567891').catch((error: PlatformError) => error);
      expect((first as PlatformError).extensions).toMatchObject({
        code: 'PROVIDER_UNAVAILABLE',
        httpStatus: 503,
        retryable: true,
        retryAfterSeconds: 5,
      });
      // The cause stays in the log: the caller learns only that the authority did not answer.
      expect((first as PlatformError).message).not.toContain('timed out');
      outage = new BusinessStatusUnavailableError('ERROR_ANSWER', 'HTTP 503', 30);
      const second = await verify(client, '1234567891').catch((error: PlatformError) => error);
      expect((second as PlatformError).extensions['retryAfterSeconds']).toBe(30);
    } finally {
      outage = null;
    }
  });
});

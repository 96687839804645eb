import { expect } from 'vitest';

/**
 * Checks the guidance a 429 carries for the limit `policy` (Retry-After and RateLimit): a whole
 * Retry-After from `minRetryAfter` up to the window, the policy `limit;w=window` and nothing left
 * until the reset. Returns Retry-After in seconds.
 */
export function expectRateLimitHeaders(
  headers: Headers,
  policy: { limit: number; windowS: number },
  minRetryAfter: number,
): number {
  const retryAfter = Number(headers.get('retry-after'));
  expect(Number.isInteger(retryAfter)).toBe(true);
  expect(retryAfter).toBeGreaterThanOrEqual(minRetryAfter);
  expect(retryAfter).toBeLessThanOrEqual(policy.windowS);
  expect(headers.get('ratelimit-policy')).toBe(`${policy.limit};w=${policy.windowS}`);
  expect(headers.get('ratelimit')).toBe(`limit=${policy.limit}, remaining=0, reset=${retryAfter}`);
  return retryAfter;
}

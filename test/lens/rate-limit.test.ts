import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { cli } from '../support/cli.js';
import { expectRateLimitHeaders } from '../support/rate-limited.js';
import { graphqlOp } from './lens-client.js';
import { expectError, profile, settled } from './engine-support.js';

const GOOD = { accountRef: { handle: 'minji.daily' } };

describe('rate limits per API key (DESIGN.md L8)', () => {
  let limited: string;
  let poorLimited: string;

  beforeAll(async () => {
    [limited, poorLimited] = await Promise.all([
      cli('lens:create-key', '--rate-limit', '3'),
      cli('lens:create-key', '--rate-limit', '1', '--credits', '0'),
    ]);
  });

  it('the request past N per minute is 429 RATE_LIMITED with Retry-After and RateLimit headers', async () => {
    const idempotencyKey = randomUUID();
    for (let i = 0; i < 3; i++) {
      const accepted = await profile(limited, GOOD, idempotencyKey);
      // The terminal state, whatever the sync budget allowed (the status look-up is not counted).
      expect(await settled(limited, accepted)).toMatchObject({ status: 'SUCCEEDED' });
    }
    // A replay counts too: the limit is checked before idempotency.
    const refused = await profile(limited, GOOD, idempotencyKey);
    expectError(refused, 429, 'RATE_LIMITED', true);
    expectRateLimitHeaders(refused.headers, { limit: 3, windowS: 60 }, 1);
    // The same key over GraphQL shares the count, with the same guidance in extensions.
    const overGraphQL = await graphqlOp('accounts.profile', GOOD, limited);
    expect(overGraphQL.errors?.[0]?.extensions).toMatchObject({
      code: 'RATE_LIMITED',
      retryable: true,
      rateLimitPolicy: '3;w=60',
    });
  });

  it('the rate limit comes before the credit check: 402 first, then 429', async () => {
    expectError(await profile(poorLimited, GOOD), 402, 'INSUFFICIENT_CREDITS', false);
    expectError(await profile(poorLimited, GOOD), 429, 'RATE_LIMITED', true);
  });
});

import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  createKeys,
  OPERATION_NAMES,
  restOk,
  restOp,
  waitForOperation,
  type LensBody,
  type OperationName,
} from './lens-client.js';
import { answerSlowNow } from '../support/clients.js';

/** A body naming one account for each operation. */
function bodyFor(name: OperationName, handle: string): Record<string, unknown> {
  if (name === 'accounts.stories') return { accountRefs: [{ handle }] };
  if (name === 'accounts.search') return { search: handle };
  return { accountRef: { handle } };
}

/** Every operation on one account: all but `accounts.search`. */
const ACCOUNT_OPERATIONS = OPERATION_NAMES.filter((name) => name !== 'accounts.search');

/** What a private account shows (DESIGN.md L12; decisions in docs/decisions.md, "Lens data"). */
const READABLE_WHEN_PRIVATE = new Set<OperationName>([
  'accounts.profile',
  'accounts.related',
  'accounts.about',
]);

/** A failed operation: its status and code, the envelope in `data`, every credit refunded. */
function expectFailed(body: LensBody, code: string, retryable: boolean) {
  expect(body.success).toBe(false);
  expect(body.error).toMatchObject({ code, retryable });
  const envelope = body.data!;
  expect(envelope.status).toBe('FAILED');
  expect(envelope.error).toEqual(body.error);
  expect(envelope.data).toBeUndefined();
  expect(envelope.credits.charged).toBe(0);
  expect(envelope.credits.refunded).toBe(envelope.credits.reserved);
}

describe('simulated upstream scenarios (DESIGN.md section 5)', () => {
  let key: string;
  /** Operation `name` on the account `handle`, with this block's key. */
  const onAccount = (name: OperationName, handle: string) =>
    restOp(name, bodyFor(name, handle), key);

  beforeAll(async () => {
    [key] = await createKeys(1);
  });

  describe('private_: a private account', () => {
    it.each(ACCOUNT_OPERATIONS)('%s', async (name) => {
      const result = await onAccount(name, 'private_hidden.one');
      if (READABLE_WHEN_PRIVATE.has(name)) {
        expect(result.status, JSON.stringify(result.body)).toBe(200);
      } else {
        expect(result.status, JSON.stringify(result.body)).toBe(403);
        expectFailed(result.body, 'ACCOUNT_PRIVATE', false);
      }
    });

    it('the profile says it is private and still has its counts', async () => {
      const envelope = await restOk<Record<string, unknown>>(
        'accounts.profile',
        { accountRef: { handle: 'private_hidden.one' } },
        key,
      );
      expect(envelope.data).toMatchObject({ handle: 'private_hidden.one', isPrivate: true });
      expect(envelope.data['followerCount']).toEqual(expect.any(Number));
    });

    it('one private account among the stories fails the whole call', async () => {
      const result = await restOp(
        'accounts.stories',
        { accountRefs: [{ handle: 'open.stories' }, { handle: 'private_hidden.two' }] },
        key,
      );
      expect(result.status).toBe(403);
      expectFailed(result.body, 'ACCOUNT_PRIVATE', false);
    });
  });

  describe('missing_: not found (404, FAILED, refunded)', () => {
    it.each(ACCOUNT_OPERATIONS)('%s', async (name) => {
      const result = await onAccount(name, 'missing_nobody');
      expect(result.status, JSON.stringify(result.body)).toBe(404);
      expectFailed(result.body, 'ACCOUNT_NOT_FOUND', false);
    });

    it('accounts.search for a missing_ text finds nothing', async () => {
      const envelope = await restOk<{ items: unknown[] }>(
        'accounts.search',
        { search: 'missing_nobody' },
        key,
      );
      expect(envelope.data.items).toEqual([]);
      expect(envelope.credits).toEqual({ reserved: 51, charged: 1, refunded: 50 });
    });

    it('a repeated key returns the same failure again, never re-run', async () => {
      const idempotencyKey = randomUUID();
      const body = { accountRef: { handle: 'missing_nobody' } };
      const first = await restOp('accounts.posts', body, key, idempotencyKey);
      const again = await restOp('accounts.posts', body, key, idempotencyKey);
      expect(again.status).toBe(404);
      expect(again.body.data!.replayed).toBe(true);
      expect(again.body.data!.operationId).toBe(first.body.data!.operationId);
    });
  });

  describe('flaky_: upstream unavailable (503, retryable, FAILED, refunded)', () => {
    it.each([...ACCOUNT_OPERATIONS, 'accounts.search' as const])('%s', async (name) => {
      const result = await onAccount(name, 'flaky_wobbly');
      expect(result.status, JSON.stringify(result.body)).toBe(503);
      // Every 503 says when to come back (issue 21).
      expect(result.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
      expectFailed(result.body, 'UPSTREAM_UNAVAILABLE', true);
    });
  });

  describe('noguides_: the legacy guides are not offered', () => {
    it('accounts.guides → 503 FEATURE_UNAVAILABLE, refunded', async () => {
      const result = await onAccount('accounts.guides', 'noguides_modern');
      expect(result.status).toBe(503);
      expect(result.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
      expectFailed(result.body, 'FEATURE_UNAVAILABLE', true);
    });

    it('every other operation works for the same account', async () => {
      for (const name of ['accounts.profile', 'accounts.posts', 'accounts.highlights'] as const) {
        await restOk(name, bodyFor(name, 'noguides_modern'), key);
      }
    });
  });

  describe('verified_: a verified account whose followers are a fixed sample', () => {
    it('the profile and about say verified', async () => {
      const profile = await restOk<Record<string, unknown>>(
        'accounts.profile',
        { accountRef: { handle: 'verified_celebrity' } },
        key,
      );
      expect(profile.data['isVerified']).toBe(true);
      const about = await restOk<Record<string, unknown>>(
        'accounts.about',
        { accountRef: { handle: 'verified_celebrity' } },
        key,
      );
      expect(about.data['isVerified']).toBe(true);
      expect(about.data['verifiedAt']).toMatch(/^\d{4}-\d{2}$/);
    });

    it('followers: the same sample every time, one page, completeness observedSample', async () => {
      const body = { accountRef: { handle: 'verified_celebrity' }, pageSize: 50 };
      const first = await restOk<{ items: unknown[]; nextCursor: null; completeness: string }>(
        'accounts.followers',
        body,
        key,
      );
      const second = await restOk<{ items: unknown[] }>('accounts.followers', body, key);
      expect(first.data).toMatchObject({ nextCursor: null, completeness: 'observedSample' });
      expect(second.data.items).toEqual(first.data.items);
    });
  });

  describe('slow_: longer than the sync budget', () => {
    it('answers 202 RUNNING, then the status endpoint shows SUCCEEDED', async () => {
      const result = await onAccount('accounts.profile', 'slow_tortoise');
      expect(result.status).toBe(202);
      const envelope = result.body.data!;
      expect(envelope.status).toBe('RUNNING');
      expect(envelope.data).toBeUndefined();
      await answerSlowNow(); // the 202 is seen: the rest of the delay proves nothing more
      const done = await waitForOperation(envelope.operationId, key);
      expect(done.status).toBe('SUCCEEDED');
      expect(done.data).toMatchObject({ handle: 'slow_tortoise' });
      expect(done.credits).toEqual({ reserved: 1, charged: 1, refunded: 0 });
    });

    it('a slow paged operation finishes with a cursor that continues the walk', async () => {
      const body = { accountRef: { handle: 'slow_tortoise' }, pageSize: 3 };
      const result = await restOp('accounts.followers', body, key);
      expect(result.status).toBe(202);
      await answerSlowNow();
      const done = await waitForOperation(result.body.data!.operationId, key);
      const page = done.data as { items: unknown[]; nextCursor: string };
      expect(page.items).toHaveLength(3);
      const next = await restOp('accounts.followers', { ...body, cursor: page.nextCursor }, key);
      expect(next.status).toBe(202);
      await answerSlowNow();
      const second = await waitForOperation(next.body.data!.operationId, key);
      expect(second.status).toBe('SUCCEEDED');
    });
  });
});

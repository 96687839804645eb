import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { cli } from '../support/cli.js';
import { createKeys, graphqlFails, restFails, restOk, restOp } from './lens-client.js';

interface Page {
  items: unknown[];
  nextCursor: string | null;
}

const VICTIM = { handle: 'victim.account' };

/** Re-encodes a cursor's payload with `change` applied, keeping the original signature. */
function forge(cursor: string, change: (payload: Record<string, unknown>) => void): string {
  const [version, payload, signature] = cursor.split('.') as [string, string, string];
  const decoded = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<
    string,
    unknown
  >;
  change(decoded);
  return `${version}.${Buffer.from(JSON.stringify(decoded)).toString('base64url')}.${signature}`;
}

const flip = (text: string, index: number) =>
  `${text.slice(0, index)}${text[index] === 'A' ? 'B' : 'A'}${text.slice(index + 1)}`;

describe('cursor attacks (DESIGN.md L9): every one is a 400 that changes nothing', () => {
  let owner: string;
  let intruder: string;
  let postsCursor: string;
  let followersCursor: string;

  beforeAll(async () => {
    [owner, intruder] = await createKeys(2);
    const posts = await restOk<Page>('accounts.posts', { accountRef: VICTIM, pageSize: 2 }, owner);
    const followers = await restOk<Page>(
      'accounts.followers',
      { accountRef: VICTIM, pageSize: 5 },
      owner,
    );
    postsCursor = posts.data.nextCursor!;
    followersCursor = followers.data.nextCursor!;
    expect(postsCursor).toMatch(/^c1\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
  });

  it('the cursor is opaque: it shows neither the tenant nor the API key', () => {
    const payload = Buffer.from(postsCursor.split('.')[1]!, 'base64url').toString('utf8');
    expect(payload).not.toContain(owner);
    expect(postsCursor.length).toBeLessThanOrEqual(16384);
  });

  it('the genuine cursor continues the walk for its owner', async () => {
    const next = await restOk<Page>(
      'accounts.posts',
      { accountRef: VICTIM, pageSize: 2, cursor: postsCursor },
      owner,
    );
    expect(next.data.items).toHaveLength(2);
  });

  it.each([
    ['a changed page token', () => forge(postsCursor, (p) => (p['p'] = '0_1'))],
    ['a changed account', () => forge(postsCursor, (p) => (p['a'] = 'h:someone.else'))],
    ['a changed tenant tag', () => forge(postsCursor, (p) => (p['t'] = 'AAAAAAAAAAAAAAAAAAAAAA'))],
    ['a flipped signature character', () => flip(postsCursor, postsCursor.length - 3)],
    ['a flipped payload character', () => flip(postsCursor, 5)],
    ['a truncated cursor', () => postsCursor.slice(0, -4)],
    ['no signature', () => postsCursor.split('.').slice(0, 2).join('.')],
    ['another version', () => postsCursor.replace(/^c1\./, 'c2.')],
    ['an empty string', () => ''],
    ['garbage', () => 'not-a-cursor'],
    ['16384 characters of garbage', () => 'x'.repeat(16384)],
  ])('tampered: %s → 400 INVALID_CURSOR', async (_label, make) => {
    const body = await restFails(
      'accounts.posts',
      { accountRef: VICTIM, pageSize: 2, cursor: make() },
      owner,
      400,
      'INVALID_CURSOR',
    );
    expect(body.data).toBeUndefined();
  });

  it('another tenant’s cursor → 400 INVALID_CURSOR (REST and GraphQL)', async () => {
    await restFails(
      'accounts.posts',
      { accountRef: VICTIM, pageSize: 2, cursor: postsCursor },
      intruder,
      400,
      'INVALID_CURSOR',
    );
    await graphqlFails(
      'accounts.followers',
      { accountRef: VICTIM, cursor: followersCursor },
      intruder,
      'INVALID_CURSOR',
    );
  });

  it('another account’s cursor → 400 INVALID_CURSOR', async () => {
    await restFails(
      'accounts.posts',
      { accountRef: { handle: 'other.account' }, cursor: postsCursor },
      owner,
      400,
      'INVALID_CURSOR',
    );
    // Bound to the reference as given: the same account by id is another binding.
    const profile = await restOk<{ accountId: string }>(
      'accounts.profile',
      { accountRef: VICTIM },
      owner,
    );
    await restFails(
      'accounts.posts',
      { accountRef: { accountId: profile.data.accountId }, cursor: postsCursor },
      owner,
      400,
      'INVALID_CURSOR',
    );
  });

  it.each([
    ['accounts.reels', () => postsCursor],
    ['accounts.taggedPosts', () => postsCursor],
    ['accounts.guides', () => postsCursor],
    ['accounts.following', () => followersCursor],
    ['accounts.followers', () => postsCursor],
  ] as const)('another operation’s cursor on %s → 400 INVALID_CURSOR', async (name, cursor) => {
    await restFails(name, { accountRef: VICTIM, cursor: cursor() }, owner, 400, 'INVALID_CURSOR');
  });

  it('a cursor over 16384 characters → 400 INVALID_REQUEST (REST and GraphQL)', async () => {
    const tooLong = `${postsCursor}${'A'.repeat(16385 - postsCursor.length)}`;
    expect(tooLong).toHaveLength(16385);
    const input = { accountRef: VICTIM, cursor: tooLong };
    await restFails('accounts.posts', input, owner, 400, 'INVALID_REQUEST');
    await graphqlFails('accounts.posts', input, owner, 'INVALID_REQUEST');
  });

  it('a refused cursor writes nothing: the Idempotency-Key stays free', async () => {
    const idempotencyKey = randomUUID();
    const refused = await restOp(
      'accounts.posts',
      { accountRef: VICTIM, cursor: flip(postsCursor, 8) },
      owner,
      idempotencyKey,
    );
    expect(refused.status).toBe(400);
    const fresh = await restOp('accounts.posts', { accountRef: VICTIM }, owner, idempotencyKey);
    expect(fresh.status).toBe(200);
    expect(fresh.body.data!.replayed).toBe(false);
  });

  it('a foreign cursor with a bad API key is a 401 (the key is checked first)', async () => {
    const result = await restOp(
      'accounts.posts',
      { accountRef: VICTIM, cursor: postsCursor },
      'lens_not-a-real-key',
    );
    expect(result.status).toBe(401);
  });

  it('no attack cost the intruder a credit', async () => {
    expect(await cli('lens:credits', intruder)).toBe('100000');
  });
});

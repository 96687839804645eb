import { describe, expect, it } from 'vitest';
import { cli } from '../support/cli.js';
import { graphqlOk } from '../support/clients.js';
import * as op from './operation-shapes.js';

/** Profiles, posts and connections over REST, and what they store (lens spec section 4). */
describe('every lens operation over REST (lens spec section 4)', () => {
  const api = op.useKey();

  it('accounts.profile standard: the ten summary fields, 1 credit', async () => {
    const envelope = await op.readHandle<op.Summary>('accounts.profile', api.key);
    expect(op.sortedKeys(envelope.data)).toEqual(op.ACCOUNT_SUMMARY_KEYS);
    expect(envelope.data.handle).toBe(op.HANDLE);
    op.expectCredits(envelope, 1, 1);
  });

  it('accounts.profile extended: the summary plus the extended fields, no recent posts', async () => {
    const envelope = await op.restOk<op.Summary>(
      'accounts.profile',
      { accountRef: { handle: op.HANDLE }, detail: 'extended' },
      api.key,
    );
    expect(op.sortedKeys(envelope.data)).toEqual(
      [...op.ACCOUNT_SUMMARY_KEYS, ...op.EXTENDED_PROFILE_KEYS].sort(),
    );
    expect(envelope.data).not.toHaveProperty('recentPosts');
    expect(typeof envelope.data['reelCount']).toBe('number');
    expect(typeof envelope.data['profilePictureUrl']).toBe('string');
    op.expectCredits(envelope, 1, 1);
  });

  it('accounts.profile by accountId finds the same account', async () => {
    const byHandle = await op.readHandle<op.Summary>('accounts.profile', api.key);
    const byId = await op.restOk<op.Summary>(
      'accounts.profile',
      { accountRef: { accountId: byHandle.data.accountId } },
      api.key,
    );
    expect(byId.data).toEqual(byHandle.data);
  });

  it.each([
    ['accounts.posts', {}, 12, 12],
    ['accounts.posts', { pageSize: 5 }, 5, 5],
    ['accounts.reels', {}, 12, 12],
    ['accounts.reels', { pageSize: 3 }, 3, 3],
    ['accounts.taggedPosts', {}, 12, 12],
    ['accounts.taggedPosts', { pageSize: 30 }, 30, 30],
  ] as const)('%s %j: a page of Post, reserved 1 + %d', async (name, extra, bound, _max) => {
    const envelope = await op.restOk<op.Page<op.Post>>(
      name,
      { accountRef: { handle: op.HANDLE }, ...extra },
      api.key,
    );
    expect(op.sortedKeys(envelope.data)).toEqual(['completeness', 'items', 'nextCursor']);
    expect(envelope.data.completeness).toBe('observedSample');
    expect(envelope.data.items.length).toBeGreaterThan(0);
    expect(envelope.data.items.length).toBeLessThanOrEqual(bound);
    op.expectPosts(envelope.data.items);
    op.expectCredits(envelope, 1 + bound, 1 + envelope.data.items.length);
  });

  it.each([
    ['accounts.followers', {}, 50],
    ['accounts.followers', { pageSize: 7 }, 7],
    ['accounts.following', {}, 50],
    ['accounts.following', { pageSize: 20 }, 20],
  ] as const)('%s %j: a page of Account summary', async (name, extra, bound) => {
    const envelope = await op.restOk<op.Page<op.Summary>>(
      name,
      { accountRef: { handle: op.HANDLE }, ...extra },
      api.key,
    );
    expect(envelope.data.completeness).toBe('observedSample');
    expect(envelope.data.items).toHaveLength(bound);
    expect(typeof envelope.data.nextCursor).toBe('string');
    for (const item of envelope.data.items)
      expect(op.sortedKeys(item)).toEqual(op.ACCOUNT_SUMMARY_KEYS);
    op.expectCredits(envelope, 1 + bound, 1 + bound);
  });

  it.each(['accounts.followers', 'accounts.following'] as const)(
    '%s with search: one filtered page, no cursor, at most 50',
    async (name) => {
      const first = await op.readHandle<op.Page<op.Summary>>(name, api.key);
      const needle = first.data.items[0]!.handle!.slice(0, 3);
      const envelope = await op.restOk<op.Page<op.Summary>>(
        name,
        { accountRef: { handle: op.HANDLE }, search: needle },
        api.key,
      );
      expect(envelope.data.nextCursor).toBeNull();
      expect(envelope.data.completeness).toBe('observedSample');
      expect(envelope.data.items.length).toBeGreaterThan(0);
      expect(envelope.data.items.length).toBeLessThanOrEqual(50);
      op.expectCredits(envelope, 51, 1 + envelope.data.items.length);
    },
  );

  it('stores every fetched account as an observation: Account resolves without credits', async () => {
    const followers = await op.restOk<op.Page<op.Summary>>(
      'accounts.followers',
      { accountRef: { handle: 'observed.owner' }, pageSize: 3 },
      api.key,
    );
    const posts = await op.restOk<op.Page<op.Post>>(
      'accounts.posts',
      { accountRef: { handle: 'observed.owner' }, pageSize: 12 },
      api.key,
    );
    const mentioned = posts.data.items.flatMap((p) => p.mentions).map((m) => m.accountId!);
    const ids = [
      ...followers.data.items.map((f) => f.accountId!),
      posts.data.items[0]!.owner.accountId!,
      ...mentioned.slice(0, 3),
    ];
    const admin = await cli('auth:token', '--role', 'ADMIN');
    for (const accountId of ids) {
      const { account } = await graphqlOk<{
        account: { accountId: string; handle: string | null; observedAt: string | null };
      }>(
        'query($id: String!) { account(accountId: $id) { accountId handle observedAt } }',
        { id: accountId },
        admin,
      );
      expect(account.accountId).toBe(accountId);
      expect(account.handle).not.toBeNull();
      expect(account.observedAt).toMatch(/^\d{4}-/);
    }
  });

  it('a list never erases what a profile look-up observed (partial accounts merge)', async () => {
    const profile = await op.restOk<op.Summary>(
      'accounts.profile',
      { accountRef: { handle: 'merge.owner' } },
      api.key,
    );
    await op.restOk(
      'accounts.posts',
      { accountRef: { handle: 'merge.owner' }, pageSize: 1 },
      api.key,
    );
    const { account } = await graphqlOk<{ account: Record<string, unknown> }>(
      'query($id: String!) { account(accountId: $id) { followerCount postCount observedAt } }',
      { id: profile.data.accountId },
      await cli('auth:token', '--role', 'SUPER_ADMIN'),
    );
    expect(account['followerCount']).toBe(profile.data['followerCount']);
    expect(account['postCount']).toBe(profile.data['postCount']);
  });
});

import { beforeAll, describe, expect, it } from 'vitest';
import { cli } from '../support/cli.js';
import { graphqlOk } from '../support/clients.js';
import {
  ACCOUNT_SUMMARY_KEYS,
  createKeys,
  EXTENDED_PROFILE_KEYS,
  restOk,
  sortedKeys,
  type Envelope,
} from './lens-client.js';

type Summary = Record<string, unknown> & { accountId: string | null; handle: string | null };
type Post = Record<string, unknown> & { owner: Summary; mentions: Summary[]; postId: string };
interface Page<T> {
  items: T[];
  nextCursor: string | null;
  completeness: string;
}

const POST_KEYS = [
  'captionPreview',
  'carousel',
  'commentCount',
  'durationSeconds',
  'expiresAt',
  'format',
  'hashtags',
  'isPaidPartnership',
  'likeCount',
  'location',
  'mentions',
  'owner',
  'postId',
  'publishedAt',
  'sponsorAccounts',
  'shortcode',
  'viewCount',
].sort();

const HANDLE = 'minji.daily';

/** Charged = base + perItem × delivered; reserved = base + perItem × upper bound; the rest refunded. */
function expectCredits(envelope: Pick<Envelope, 'credits'>, reserved: number, charged: number) {
  expect(envelope.credits).toEqual({ reserved, charged, refunded: reserved - charged });
}

function expectPosts(items: Post[]) {
  for (const post of items) {
    expect(sortedKeys(post)).toEqual(POST_KEYS);
    expect(sortedKeys(post.owner)).toEqual(ACCOUNT_SUMMARY_KEYS);
    for (const m of post.mentions) expect(sortedKeys(m)).toEqual(ACCOUNT_SUMMARY_KEYS);
  }
}

describe('every lens operation over REST (lens spec section 4)', () => {
  let key: string;

  beforeAll(async () => {
    [key] = await createKeys(1);
  });

  it('accounts.profile standard: the ten summary fields, 1 credit', async () => {
    const envelope = await restOk<Summary>(
      'accounts.profile',
      { accountRef: { handle: HANDLE } },
      key,
    );
    expect(sortedKeys(envelope.data)).toEqual(ACCOUNT_SUMMARY_KEYS);
    expect(envelope.data.handle).toBe(HANDLE);
    expectCredits(envelope, 1, 1);
  });

  it('accounts.profile extended: the summary plus the extended fields, no recent posts', async () => {
    const envelope = await restOk<Summary>(
      'accounts.profile',
      { accountRef: { handle: HANDLE }, detail: 'extended' },
      key,
    );
    expect(sortedKeys(envelope.data)).toEqual(
      [...ACCOUNT_SUMMARY_KEYS, ...EXTENDED_PROFILE_KEYS].sort(),
    );
    expect(envelope.data).not.toHaveProperty('recentPosts');
    expect(typeof envelope.data['reelCount']).toBe('number');
    expect(typeof envelope.data['profilePictureUrl']).toBe('string');
    expectCredits(envelope, 1, 1);
  });

  it('accounts.profile by accountId finds the same account', async () => {
    const byHandle = await restOk<Summary>(
      'accounts.profile',
      { accountRef: { handle: HANDLE } },
      key,
    );
    const byId = await restOk<Summary>(
      'accounts.profile',
      { accountRef: { accountId: byHandle.data.accountId } },
      key,
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
    const envelope = await restOk<Page<Post>>(
      name,
      { accountRef: { handle: HANDLE }, ...extra },
      key,
    );
    expect(sortedKeys(envelope.data)).toEqual(['completeness', 'items', 'nextCursor']);
    expect(envelope.data.completeness).toBe('observedSample');
    expect(envelope.data.items.length).toBeGreaterThan(0);
    expect(envelope.data.items.length).toBeLessThanOrEqual(bound);
    expectPosts(envelope.data.items);
    expectCredits(envelope, 1 + bound, 1 + envelope.data.items.length);
  });

  it.each([
    ['accounts.followers', {}, 50],
    ['accounts.followers', { pageSize: 7 }, 7],
    ['accounts.following', {}, 50],
    ['accounts.following', { pageSize: 20 }, 20],
  ] as const)('%s %j: a page of Account summary', async (name, extra, bound) => {
    const envelope = await restOk<Page<Summary>>(
      name,
      { accountRef: { handle: HANDLE }, ...extra },
      key,
    );
    expect(envelope.data.completeness).toBe('observedSample');
    expect(envelope.data.items).toHaveLength(bound);
    expect(typeof envelope.data.nextCursor).toBe('string');
    for (const item of envelope.data.items) expect(sortedKeys(item)).toEqual(ACCOUNT_SUMMARY_KEYS);
    expectCredits(envelope, 1 + bound, 1 + bound);
  });

  it.each(['accounts.followers', 'accounts.following'] as const)(
    '%s with search: one filtered page, no cursor, at most 50',
    async (name) => {
      const first = await restOk<Page<Summary>>(name, { accountRef: { handle: HANDLE } }, key);
      const needle = first.data.items[0]!.handle!.slice(0, 3);
      const envelope = await restOk<Page<Summary>>(
        name,
        { accountRef: { handle: HANDLE }, search: needle },
        key,
      );
      expect(envelope.data.nextCursor).toBeNull();
      expect(envelope.data.completeness).toBe('observedSample');
      expect(envelope.data.items.length).toBeGreaterThan(0);
      expect(envelope.data.items.length).toBeLessThanOrEqual(50);
      expectCredits(envelope, 51, 1 + envelope.data.items.length);
    },
  );

  it('accounts.guides: a page of Guide', async () => {
    const envelope = await restOk<Page<Record<string, unknown> & { posts: Post[] }>>(
      'accounts.guides',
      { accountRef: { handle: HANDLE } },
      key,
    );
    expect(envelope.data.completeness).toBe('observedSample');
    for (const guide of envelope.data.items) {
      expect(sortedKeys(guide)).toEqual(
        ['descriptionPreview', 'guideId', 'owner', 'posts', 'title'].sort(),
      );
      expectPosts(guide.posts);
    }
    expectCredits(envelope, 13, 1 + envelope.data.items.length);
  });

  it('accounts.stories: one story set per accountRef, in order, no cursor', async () => {
    const refs = [
      { handle: HANDLE },
      { handle: 'haneul.cooks' },
      { handle: 'jiwoo.studio' },
      { handle: 'seoul.eats' },
    ];
    const envelope = await restOk<{ items: { account: Summary; stories: Post[] }[] }>(
      'accounts.stories',
      { accountRefs: refs },
      key,
    );
    expect(sortedKeys(envelope.data)).toEqual(['items']);
    expect(envelope.data.items.map((s) => s.account.handle)).toEqual(refs.map((r) => r.handle));
    for (const set of envelope.data.items) {
      expect(sortedKeys(set)).toEqual(['account', 'stories']);
      expectPosts(set.stories);
      for (const story of set.stories) expect(story['expiresAt']).toEqual(expect.any(Number));
    }
    expectCredits(envelope, 5, 5);
  });

  it('accounts.highlights: items of Highlight', async () => {
    const envelope = await restOk<{ items: (Record<string, unknown> & { stories: Post[] })[] }>(
      'accounts.highlights',
      { accountRef: { handle: HANDLE } },
      key,
    );
    expect(sortedKeys(envelope.data)).toEqual(['items']);
    expect(envelope.data.items.length).toBeGreaterThan(0);
    for (const h of envelope.data.items) {
      expect(sortedKeys(h)).toEqual(['highlightId', 'itemCount', 'owner', 'stories', 'title']);
      expectPosts(h.stories);
    }
    expectCredits(envelope, 101, 1 + envelope.data.items.length);
  });

  it('accounts.broadcast: the Broadcast', async () => {
    const envelope = await restOk<Record<string, unknown>>(
      'accounts.broadcast',
      { accountRef: { handle: HANDLE } },
      key,
    );
    expect(sortedKeys(envelope.data)).toEqual(
      ['broadcastId', 'owner', 'startedAt', 'state', 'viewerCount'].sort(),
    );
    expect(['live', 'interrupted', 'ended', 'offline']).toContain(envelope.data['state']);
    expectCredits(envelope, 1, 1);
  });

  it('accounts.related: items of Account summary', async () => {
    const envelope = await restOk<{ items: Summary[] }>(
      'accounts.related',
      { accountRef: { handle: HANDLE } },
      key,
    );
    expect(sortedKeys(envelope.data)).toEqual(['items']);
    expect(envelope.data.items.length).toBeGreaterThan(0);
    for (const item of envelope.data.items) expect(sortedKeys(item)).toEqual(ACCOUNT_SUMMARY_KEYS);
    expectCredits(envelope, 51, 1 + envelope.data.items.length);
  });

  it('accounts.about: About', async () => {
    const envelope = await restOk<Record<string, unknown>>(
      'accounts.about',
      { accountRef: { handle: HANDLE } },
      key,
    );
    expect(sortedKeys(envelope.data)).toEqual(
      [
        'accountId',
        'country',
        'formerHandleCount',
        'isVerified',
        'joinedAt',
        'sharedFollowerAccountCount',
        'verifiedAt',
      ].sort(),
    );
    expect(envelope.data['joinedAt']).toMatch(/^\d{4}-\d{2}$/);
    expectCredits(envelope, 1, 1);
  });

  it('accounts.search: at most 50 Account summaries', async () => {
    const envelope = await restOk<{ items: Summary[] }>(
      'accounts.search',
      { search: 'minji' },
      key,
    );
    expect(sortedKeys(envelope.data)).toEqual(['items']);
    expect(envelope.data.items.length).toBe(50);
    for (const item of envelope.data.items) expect(sortedKeys(item)).toEqual(ACCOUNT_SUMMARY_KEYS);
    expectCredits(envelope, 51, 51);
  });

  it('stores every fetched account as an observation: Account resolves without credits', async () => {
    const followers = await restOk<Page<Summary>>(
      'accounts.followers',
      { accountRef: { handle: 'observed.owner' }, pageSize: 3 },
      key,
    );
    const posts = await restOk<Page<Post>>(
      'accounts.posts',
      { accountRef: { handle: 'observed.owner' }, pageSize: 12 },
      key,
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
    const profile = await restOk<Summary>(
      'accounts.profile',
      { accountRef: { handle: 'merge.owner' } },
      key,
    );
    await restOk('accounts.posts', { accountRef: { handle: 'merge.owner' }, pageSize: 1 }, key);
    const { account } = await graphqlOk<{ account: Record<string, unknown> }>(
      'query($id: String!) { account(accountId: $id) { followerCount postCount observedAt } }',
      { id: profile.data.accountId },
      await cli('auth:token', '--role', 'SUPER_ADMIN'),
    );
    expect(account['followerCount']).toBe(profile.data['followerCount']);
    expect(account['postCount']).toBe(profile.data['postCount']);
  });
});

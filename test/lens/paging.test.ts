import { beforeAll, describe, expect, it } from 'vitest';
import { createKeys, graphqlOp, restOk, type Envelope, type OperationName } from './lens-client.js';

interface Page {
  items: Record<string, unknown>[];
  nextCursor: string | null;
  completeness: string;
}

const idOf = (item: Record<string, unknown>) =>
  String(item['postId'] ?? item['guideId'] ?? item['accountId']);

/** Follows nextCursor to the end over REST; every page checked against the OpenAPI document. */
async function walk(
  name: OperationName,
  handle: string,
  key: string,
  bound: number,
  extra: Record<string, unknown> = {},
): Promise<{ ids: string[]; pages: number }> {
  const body = { accountRef: { handle }, ...extra };
  const ids: string[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const envelope: Envelope<Page> & { data: Page } = await restOk<Page>(
      name,
      cursor ? { ...body, cursor } : body,
      key,
    );
    pages++;
    expect(envelope.data.completeness).toBe('observedSample');
    expect(envelope.data.items.length).toBeLessThanOrEqual(bound);
    expect(envelope.credits.charged).toBe(1 + envelope.data.items.length);
    ids.push(...envelope.data.items.map(idOf));
    cursor = envelope.data.nextCursor;
    expect(pages).toBeLessThan(100);
  } while (cursor !== null);
  return { ids, pages };
}

describe('paging with nextCursor (lens spec section 4, DESIGN.md L9)', () => {
  let key: string;

  beforeAll(async () => {
    [key] = await createKeys(1);
  });

  it('accounts.posts walks the whole timeline once (postCount items), ending with null', async () => {
    const profile = await restOk<{ postCount: number }>(
      'accounts.profile',
      { accountRef: { handle: 'walk.posts' } },
      key,
    );
    const { ids, pages } = await walk('accounts.posts', 'walk.posts', key, 12);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.length).toBe(profile.data.postCount);
    expect(pages).toBe(Math.ceil(profile.data.postCount / 12));
  });

  it.each([
    ['accounts.reels', 12, 12],
    ['accounts.reels', 5, 5],
    ['accounts.taggedPosts', 50, 50],
    ['accounts.taggedPosts', 7, 7],
    ['accounts.followers', 50, 50],
    ['accounts.following', 50, 50],
    ['accounts.following', 33, 33],
  ] as const)(
    '%s (pageSize %d) walks every item once, ending with null',
    async (name, size, bound) => {
      const { ids, pages } = await walk(name, 'walk.lists', key, bound, { pageSize: size });
      expect(ids.length).toBeGreaterThan(0);
      expect(new Set(ids).size).toBe(ids.length);
      expect(pages).toBe(Math.max(1, Math.ceil(ids.length / size)));
    },
  );

  it('accounts.followers of a normal account is long enough to page (a few hundred)', async () => {
    const { ids } = await walk('accounts.followers', 'walk.lists', key, 50);
    expect(ids.length).toBeGreaterThanOrEqual(250);
  });

  it('accounts.guides walks every guide once', async () => {
    const { ids } = await walk('accounts.guides', 'walk.lists', key, 12);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('the page size may change between pages; the walk stays complete', async () => {
    const all = await walk('accounts.followers', 'walk.mixed', key, 50);
    const seen: string[] = [];
    let cursor: string | null = null;
    const sizes = [1, 17, 50, 3, 29];
    let size = sizes[0]!;
    do {
      const envelope: { data: Page } = await restOk<Page>(
        'accounts.followers',
        { accountRef: { handle: 'walk.mixed' }, pageSize: size, ...(cursor ? { cursor } : {}) },
        key,
      );
      seen.push(...envelope.data.items.map(idOf));
      cursor = envelope.data.nextCursor;
      size = sizes[(sizes.indexOf(size) + 1) % sizes.length]!;
    } while (cursor !== null);
    expect(seen).toEqual(all.ids);
  });

  it('a cursor works across REST and GraphQL for the same API key', async () => {
    const first = await restOk<Page>(
      'accounts.following',
      { accountRef: { handle: 'walk.mixed' }, pageSize: 10 },
      key,
    );
    const { result, errors } = await graphqlOp(
      'accounts.following',
      { accountRef: { handle: 'walk.mixed' }, pageSize: 10, cursor: first.data.nextCursor },
      key,
    );
    expect(errors).toBeUndefined();
    const second = result!.data as unknown as Page;
    expect(second.items).toHaveLength(10);
    const firstIds = new Set(first.data.items.map(idOf));
    for (const item of second.items) expect(firstIds.has(idOf(item))).toBe(false);
  });

  it('a verified account’s followers are a fixed sample: one page, nextCursor null', async () => {
    const body = { accountRef: { handle: 'verified_walk.star' } };
    const first = await restOk<Page>('accounts.followers', body, key);
    const again = await restOk<Page>('accounts.followers', body, key);
    expect(first.data.nextCursor).toBeNull();
    expect(first.data.completeness).toBe('observedSample');
    expect(first.data.items).toHaveLength(50);
    expect(again.data.items).toEqual(first.data.items);
    const smaller = await restOk<Page>('accounts.followers', { ...body, pageSize: 10 }, key);
    expect(smaller.data.items).toEqual(first.data.items.slice(0, 10));
    expect(smaller.data.nextCursor).toBeNull();
  });

  it('a verified account’s following list still pages', async () => {
    const { ids, pages } = await walk('accounts.following', 'verified_walk.star', key, 50);
    expect(new Set(ids).size).toBe(ids.length);
    expect(pages).toBeGreaterThan(1);
  });

  it('a cursor is bound to the account, whichever form named it first', async () => {
    const byHandle = await restOk<Page & { items: { owner: { accountId: string } }[] }>(
      'accounts.posts',
      { accountRef: { handle: 'Walk.Posts' }, pageSize: 2 },
      key,
    );
    // Handles are case-insensitive: the lower-case form continues the same walk.
    const next = await restOk<Page>(
      'accounts.posts',
      { accountRef: { handle: 'walk.posts' }, pageSize: 2, cursor: byHandle.data.nextCursor },
      key,
    );
    expect(next.data.items).toHaveLength(2);
  });
});

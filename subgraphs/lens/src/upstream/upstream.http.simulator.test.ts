import { describe, expect, it } from 'vitest';
import { expectPost, expectSummary, walk } from './fixtures/checks.js';
import { useSimulatedUpstream } from './fixtures/simulated.js';
import { HttpSocialUpstream } from './upstream.http.js';
import type { AccountSummary, Post } from './upstream.port.js';

/** The adapter against the simulator (on port 0): every method, paging, determinism. */

const upstream = useSimulatedUpstream();

describe('HttpSocialUpstream against the simulator', () => {
  it('binds a real port', () => {
    expect(upstream.sim.url).toMatch(/^http:\/\/127\.0\.0\.1:[1-9]\d*$/);
  });

  it('answers every method for a normal account, in the documented shapes', async () => {
    const ref = { handle: 'mina.kim' };
    const profile = await upstream.up.profile(ref, 'standard');
    expectSummary(profile);
    expect(profile).toMatchObject({ handle: 'mina.kim', isPrivate: false, isVerified: false });
    expect(Object.keys(await upstream.up.profile(ref, 'extended'))).toHaveLength(18);
    const posts = await upstream.up.posts(ref, { pageSize: 12 });
    expect(posts.items).toHaveLength(12);
    posts.items.forEach(expectPost);
    expect(posts.items.every((p) => p.owner.handle === 'mina.kim')).toBe(true);
    const reels = await upstream.up.reels(ref, { pageSize: 12 });
    reels.items.forEach(expectPost);
    expect(reels.items.every((p) => p.format === 'video' && p.viewCount !== null)).toBe(true);
    const tagged = await upstream.up.taggedPosts(ref, { pageSize: 50 });
    tagged.items.forEach(expectPost);
    expect(tagged.items.every((p) => p.mentions.some((m) => m.handle === 'mina.kim'))).toBe(true);
    (await upstream.up.followers(ref, { pageSize: 50 })).items.forEach(expectSummary);
    (await upstream.up.following(ref, { pageSize: 50 })).items.forEach(expectSummary);
    const guides = await upstream.up.guides(ref, {});
    expect(guides.items.length).toBeGreaterThan(0);
    guides.items.forEach((g) => g.posts.forEach(expectPost));
    const highlights = await upstream.up.highlights(ref);
    expect(highlights.length).toBe(
      ((await upstream.up.profile(ref, 'extended')) as { highlightCount: number }).highlightCount,
    );
    for (const h of highlights) expect(h.stories).toHaveLength(h.itemCount ?? -1);
    expect(Object.keys(await upstream.up.broadcast(ref)).sort()).toEqual(
      ['broadcastId', 'state', 'startedAt', 'viewerCount', 'owner'].sort(),
    );
    (await upstream.up.related(ref)).forEach(expectSummary);
    const about = await upstream.up.about(ref);
    expect(about.accountId).toBe(profile.accountId);
    expect(about.joinedAt).toMatch(/^\d{4}-\d{2}$/);
  });

  it('has realistic posts: carousels, paid partnerships with sponsors, locations, tags', async () => {
    const { items } = await walk((t) =>
      upstream.up.posts({ handle: 'hana.daily' }, { pageSize: 12, pageToken: t }),
    );
    expect(items.some((p) => p.format === 'carousel' && p.carousel.length >= 2)).toBe(true);
    expect(items.some((p) => p.isPaidPartnership && p.sponsorAccounts.length > 0)).toBe(true);
    expect(items.some((p) => p.location !== null)).toBe(true);
    expect(items.some((p) => (p.hashtags ?? []).length > 0)).toBe(true);
    expect(items.some((p) => p.mentions.length > 0)).toBe(true);
  });

  it('is deterministic: two adapters, same answers', async () => {
    const other = new HttpSocialUpstream({ baseUrl: upstream.sim.url });
    const ref = { handle: 'jisoo_bakes' };
    expect(await other.profile(ref, 'extended')).toStrictEqual(
      await upstream.up.profile(ref, 'extended'),
    );
    expect(await other.posts(ref, { pageSize: 7 })).toStrictEqual(
      await upstream.up.posts(ref, { pageSize: 7 }),
    );
    expect(await other.followers(ref, { pageSize: 20 })).toStrictEqual(
      await upstream.up.followers(ref, { pageSize: 20 }),
    );
    expect(await other.about(ref)).toStrictEqual(await upstream.up.about(ref));
  });

  it('maps a handle to an id and back to the same account', async () => {
    const byHandle = await upstream.up.profile({ handle: 'Mina.Kim' }, 'extended');
    const accountId = byHandle.accountId as string;
    expect(await upstream.up.profile({ accountId }, 'extended')).toStrictEqual(byHandle);
    expect(await upstream.up.posts({ accountId }, { pageSize: 3 })).toStrictEqual(
      await upstream.up.posts({ handle: 'mina.kim' }, { pageSize: 3 }),
    );
    const follower = (await upstream.up.followers({ accountId }, { pageSize: 5 }))
      .items[0] as AccountSummary;
    const looked = await upstream.up.profile(
      { accountId: follower.accountId as string },
      'standard',
    );
    expect(looked).toMatchObject({ accountId: follower.accountId, handle: follower.handle });
  });

  it('walks the whole follower list with page tokens: no duplicate, ends with null', async () => {
    const ref = { handle: 'mina.kim' };
    const { items, pages, token } = await walk((t) =>
      upstream.up.followers(ref, { pageSize: 50, pageToken: t }),
    );
    expect(token).toBeNull();
    expect(items.length).toBeGreaterThanOrEqual(250);
    expect(items.length).toBeLessThanOrEqual(400);
    expect(pages).toBe(Math.ceil(items.length / 50));
    expect(new Set(items.map((a) => a.accountId)).size).toBe(items.length);
    const posts = await walk((t) => upstream.up.posts(ref, { pageSize: 12, pageToken: t }));
    const profile = await upstream.up.profile(ref, 'standard');
    expect(posts.items).toHaveLength(profile.postCount as number);
    expect(new Set(posts.items.map((p) => p.postId)).size).toBe(posts.items.length);
    const tagged = await walk((t) => upstream.up.taggedPosts(ref, { pageSize: 50, pageToken: t }));
    expect(tagged.items.length).toBeGreaterThanOrEqual(20);
    const following = await walk((t) => upstream.up.following(ref, { pageSize: 50, pageToken: t }));
    expect(new Set(following.items.map((a) => a.accountId)).size).toBe(following.items.length);
  });

  it('filters followers with search, without paging', async () => {
    const ref = { handle: 'mina.kim' };
    const first = (await upstream.up.followers(ref, { pageSize: 50 })).items[7] as AccountSummary;
    const term = (first.handle as string).slice(0, 4);
    const found = await upstream.up.followers(ref, { pageSize: 50 }, term.toUpperCase());
    expect(found.nextPageToken).toBeNull();
    expect(found.items.length).toBeLessThanOrEqual(50);
    expect(found.items.map((a) => a.accountId)).toContain(first.accountId);
    for (const a of found.items) {
      expect(`${a.handle} ${a.displayName}`.toLowerCase()).toContain(term.toLowerCase());
    }
    expect((await upstream.up.following(ref, { pageSize: 50 }, 'zzzzqq')).items).toEqual([]);
  });

  it('answers search with at most the limit', async () => {
    expect(await upstream.up.search('coffee', 5)).toHaveLength(5);
    const many = await upstream.up.search('coffee', 50);
    expect(many).toHaveLength(50);
    many.forEach(expectSummary);
    expect(many[0]?.handle).toBe('coffee');
    expect(await upstream.up.search('missing_brand', 10)).toEqual([]);
  });

  it('has current stories (expiring a day after) and sometimes a live broadcast', async () => {
    const handles = Array.from({ length: 30 }, (_, i) => ({ handle: `creator.${i}` }));
    const sets = (await Promise.all(handles.map((h) => upstream.up.stories([h])))).flat();
    const story = sets.flatMap((s) => s.stories)[0] as Post;
    expectPost(story);
    expect(story.expiresAt).toBe((story.publishedAt as number) + 86_400);
    const lives = await Promise.all(handles.map((h) => upstream.up.broadcast(h)));
    const live = lives.find((b) => b.state === 'live');
    expect(live?.viewerCount).toBeGreaterThan(0);
    expect(lives.some((b) => b.state === 'offline' && b.broadcastId === null)).toBe(true);
    const pair = await upstream.up.stories([{ handle: 'creator.1' }, { handle: 'creator.2' }]);
    expect(pair.map((s) => s.account.handle)).toEqual(['creator.1', 'creator.2']);
  });
});

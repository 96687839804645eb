import type { RunningServer } from '@campaign/platform';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../../../stack/src/free-port.js';
import { Replayed, startReplayServer } from '../../../../stack/src/replay-server.js';
import { fixture } from './fixtures/load.js';
import { HttpSocialUpstream } from './upstream.http.js';
import {
  mapAbout,
  mapAccountSummary,
  mapBroadcast,
  mapExtendedProfile,
  mapGuide,
  mapPost,
} from './upstream.mapping.js';
import { UpstreamError, type UpstreamFailureKind } from './upstream.port.js';
import type * as Raw from './upstream.raw.js';

/**
 * The adapter against a local server that replays the recorded-shape fixtures. The first path
 * segment picks the server's behaviour (`/ok`, `/e404`, `/hang`, ...), so each adapter's base URL
 * chooses one; the rest is the platform's path.
 */

const FIXTURES: [RegExp, string][] = [
  [/^\/api\/v1\/users\/web_profile_info\/$/, 'web_profile_info'],
  [/^\/api\/v1\/users\/\d+\/info\/$/, 'user_info'],
  [/^\/api\/v1\/feed\/user\/\d+\/$/, 'feed_user'],
  [/^\/api\/v1\/clips\/user\/$/, 'clips_user'],
  [/^\/api\/v1\/usertags\/\d+\/feed\/$/, 'usertags_feed'],
  [/^\/api\/v1\/friendships\/\d+\/(followers|following)\/$/, 'friendships_followers'],
  [/^\/api\/v1\/guides\/user\/\d+\/$/, 'guides_user'],
  [/^\/api\/v1\/feed\/reels_media\/$/, 'reels_media'],
  [/^\/api\/v1\/highlights\/\d+\/highlights_tray\/$/, 'highlights_tray'],
  [/^\/api\/v1\/live\/web_info\/$/, 'live_web_info'],
  [/^\/api\/v1\/discover\/chaining\/$/, 'discover_chaining'],
  [/^\/api\/v1\/users\/\d+\/about_this_account\/$/, 'about_this_account'],
  [/^\/web\/search\/topsearch\/$/, 'topsearch'],
];
const errors = fixture<Record<string, unknown>>('errors');

let server: RunningServer;
const seen: { path: string; query: URLSearchParams; authorization?: string }[] = [];

beforeAll(async () => {
  server = await startReplayServer({
    failures: {
      e404: new Replayed(404, errors.notFound),
      e429: new Replayed(429, errors.rateLimited),
      e503: new Replayed(503, errors.serverError),
      private: new Replayed(400, errors.notAuthorized),
      feature: new Replayed(400, errors.featureUnavailable),
    },
    notJson: '<html>login</html>',
    record: ({ path, url, headers }) =>
      seen.push({
        path,
        query: url.searchParams,
        authorization: headers.authorization as string | undefined,
      }),
    answer: ({ mode, path, url, headers }) => {
      if (mode === 'nouser') return { data: { user: null }, status: 'ok' };
      if (mode === 'auth' && headers.authorization !== 'Bearer fixture-token') {
        return new Replayed(401, errors.loginRequired);
      }
      const name = FIXTURES.find(([pattern]) => pattern.test(path))?.[1];
      if (!name) return new Replayed(404, { message: 'Page not found', status: 'fail' });
      const body = fixture<Record<string, { user: Raw.RawUser }>>(name);
      if (name === 'web_profile_info' && url.searchParams.get('username')?.startsWith('locked')) {
        (body.data as { user: Raw.RawUser }).user.is_private = true;
      }
      return body;
    },
  });
});
afterAll(() => server.close());

const upstream = (mode: string, options: { token?: string; timeoutMs?: number } = {}) =>
  new HttpSocialUpstream({ baseUrl: `${server.url}/${mode}/`, ...options });
const last = () => seen.at(-1) as (typeof seen)[number];
const mina = { handle: 'mina.kim' };
const byId = { accountId: '5831927730' };

async function failureKind(call: Promise<unknown>): Promise<UpstreamFailureKind> {
  const error = await call.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(UpstreamError);
  return (error as UpstreamError).kind;
}

describe('HttpSocialUpstream against replayed fixtures', () => {
  it('reads profiles by handle (web profile) and by id (app profile)', async () => {
    const up = upstream('ok');
    const web = fixture<{ data: { user: Raw.RawUser } }>('web_profile_info').data.user;
    expect(await up.profile(mina, 'standard')).toStrictEqual(mapAccountSummary(web));
    expect(last().path).toBe('/api/v1/users/web_profile_info/');
    expect(last().query.get('username')).toBe('mina.kim');
    expect(await up.profile(mina, 'extended')).toStrictEqual(mapExtendedProfile(web));
    const app = fixture<{ user: Raw.RawUser }>('user_info').user;
    expect(await up.profile(byId, 'extended')).toStrictEqual(mapExtendedProfile(app));
    expect(last().path).toBe('/api/v1/users/5831927730/info/');
  });

  it('resolves a handle once, then pages posts with count and max_id', async () => {
    const up = upstream('ok');
    const feed = fixture<Raw.RawMediaFeed>('feed_user');
    const page = await up.posts(mina, { pageSize: 12 });
    expect(page).toStrictEqual({
      items: (feed.items ?? []).map((m) => mapPost(m)),
      nextPageToken: '3117500000000000000_5831927730',
    });
    const before = seen.length;
    await up.posts(mina, { pageSize: 5, pageToken: page.nextPageToken });
    expect(seen.length).toBe(before + 1);
    expect(last().path).toBe('/api/v1/feed/user/5831927730/');
    expect(Object.fromEntries(last().query)).toEqual({
      count: '5',
      max_id: '3117500000000000000_5831927730',
    });
  });

  it('reads reels, tagged posts, guides', async () => {
    const up = upstream('ok');
    const reels = await up.reels(byId, { pageSize: 12 });
    expect(reels.items).toHaveLength(1);
    expect(reels.nextPageToken).toBeNull();
    expect(Object.fromEntries(last().query)).toEqual({
      target_user_id: '5831927730',
      page_size: '12',
    });
    const tagged = await up.taggedPosts(byId, { pageSize: 30 });
    expect(tagged.items[0]?.owner.handle).toBe('jisoo_bakes');
    expect(tagged.nextPageToken).toBeNull();
    const guides = await up.guides(byId, { pageToken: '4' });
    expect(guides.items).toStrictEqual(
      (fixture<Raw.RawGuideFeed>('guides_user').guides ?? []).map(mapGuide),
    );
    expect(last().query.get('max_id')).toBe('4');
  });

  it('pages followers and following; search sends `query` and ends the list', async () => {
    const up = upstream('ok');
    const page = await up.followers(byId, { pageSize: 50, pageToken: '50' });
    expect(page.items).toHaveLength(3);
    expect(page.nextPageToken).toBe('3');
    expect(Object.fromEntries(last().query)).toEqual({ count: '50', max_id: '50' });
    const following = await up.following(byId, { pageSize: 10 });
    expect(last().path).toBe('/api/v1/friendships/5831927730/following/');
    expect(following.items).toHaveLength(3);
    const found = await up.followers(byId, { pageSize: 50, pageToken: 'ignored' }, ' jisoo ');
    expect(Object.fromEntries(last().query)).toEqual({ query: 'jisoo' });
    expect(found.nextPageToken).toBeNull();
  });

  it('reads stories (profile, then reels by id) in the order asked', async () => {
    const up = upstream('ok');
    const sets = await up.stories([mina, byId]);
    expect(last().path).toBe('/api/v1/feed/reels_media/');
    expect(last().query.getAll('reel_ids')).toEqual(['5831927730', '17841405793187218']);
    expect(sets[0]?.account.handle).toBe('mina.kim');
    expect(sets[0]?.stories).toHaveLength(2);
    expect(sets[1]?.account.handle).toBe('brewcraft');
    expect(sets[1]?.stories).toEqual([]);
    expect(await failureKind(up.stories([mina, { handle: 'locked.one' }]))).toBe('PRIVATE');
  });

  it('reads highlights (tray, then their reels), broadcast, related, about, search', async () => {
    const up = upstream('ok');
    const highlights = await up.highlights(byId);
    expect(last().query.getAll('reel_ids')).toEqual([
      'highlight:17934390836227915',
      'highlight:17912345678901234',
    ]);
    expect(highlights.map((h) => [h.highlightId, h.stories.length])).toEqual([
      ['17934390836227915', 1],
      ['17912345678901234', 0],
    ]);
    expect(await up.broadcast(byId)).toStrictEqual(
      mapBroadcast(fixture<Raw.RawLiveInfo>('live_web_info')),
    );
    expect(last().query.get('target_user_id')).toBe('5831927730');
    expect((await up.related(byId)).map((a) => a.handle)).toEqual(['jisoo_bakes', 'glowlab']);
    expect(await up.about(byId)).toStrictEqual(
      mapAbout(fixture<Raw.RawAbout>('about_this_account')),
    );
    expect(await up.search('coffee', 2)).toHaveLength(2);
    expect(Object.fromEntries(last().query)).toEqual({ query: 'coffee', context: 'blended' });
    expect((await up.search('coffee', 50)).map((a) => a.handle)).toEqual([
      'coffee',
      'coffee_',
      'coffee.official',
    ]);
  });

  it('sends the bearer credential; a refused one is UNAVAILABLE', async () => {
    expect(
      (await upstream('auth', { token: 'fixture-token' }).profile(mina, 'standard')).handle,
    ).toBe('mina.kim');
    expect(last().authorization).toBe('Bearer fixture-token');
    expect(await failureKind(upstream('auth').profile(mina, 'standard'))).toBe('UNAVAILABLE');
  });
});

describe('HttpSocialUpstream failures', () => {
  it.each([
    ['e404', 'NOT_FOUND'],
    ['e429', 'RATE_LIMITED'],
    ['e503', 'UNAVAILABLE'],
    ['nouser', 'NOT_FOUND'],
    ['notjson', 'UNAVAILABLE'],
  ] as const)('%s → %s', async (mode, kind) => {
    expect(await failureKind(upstream(mode).profile(mina, 'standard'))).toBe(kind);
    if (mode !== 'nouser')
      expect(await failureKind(upstream(mode).posts(byId, { pageSize: 3 }))).toBe(kind);
  });

  it('maps the private-account and feature-not-available answers', async () => {
    expect(await failureKind(upstream('private').posts(byId, { pageSize: 3 }))).toBe('PRIVATE');
    expect(await failureKind(upstream('feature').guides(byId, {}))).toBe('UNSUPPORTED');
  });

  it('gives up on a hanging answer after the timeout', async () => {
    const started = Date.now();
    const kind = await failureKind(upstream('hang', { timeoutMs: 200 }).profile(mina, 'standard'));
    expect(kind).toBe('UNAVAILABLE');
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('reports an unreachable upstream as UNAVAILABLE', async () => {
    const up = new HttpSocialUpstream({
      baseUrl: `http://127.0.0.1:${await freePort()}`,
      timeoutMs: 1000,
    });
    const error = await up.about(byId).catch((e: unknown) => e as UpstreamError);
    expect(error).toMatchObject({ kind: 'UNAVAILABLE' });
    expect((error as UpstreamError).message).toMatch(/unreachable/);
  });
});

import { describe, expect, it } from 'vitest';
import {
  idOfHandle,
  startSocialUpstreamSimulator,
} from '../../../../providers/src/social-upstream/index.js';
import { everyMethod, kindOf } from './fixtures/checks.js';
import { SLOW_MS, useSimulatedUpstream } from './fixtures/simulated.js';
import { HttpSocialUpstream } from './upstream.http.js';

/** The simulator's scenario handles, through the adapter: the UpstreamError kind each one gives. */

const upstream = useSimulatedUpstream();

describe('simulator scenarios', () => {
  it('private_: the profile says private, content is PRIVATE, about and related answer', async () => {
    const ref = { handle: 'private_mina' };
    expect(await upstream.up.profile(ref, 'standard')).toMatchObject({
      handle: 'private_mina',
      isPrivate: true,
    });
    const kinds = Object.fromEntries(
      await Promise.all(
        everyMethod(upstream.up, ref).map(async ([name, call]) => [name, await kindOf(call())]),
      ),
    );
    expect(kinds).toEqual({
      profile: 'OK',
      posts: 'PRIVATE',
      reels: 'PRIVATE',
      taggedPosts: 'PRIVATE',
      followers: 'PRIVATE',
      following: 'PRIVATE',
      guides: 'PRIVATE',
      stories: 'PRIVATE',
      highlights: 'PRIVATE',
      broadcast: 'PRIVATE',
      related: 'OK',
      about: 'OK',
    });
  });

  it('missing_: NOT_FOUND on every method, by handle and by id', async () => {
    for (const ref of [{ handle: 'missing_mina' }, { accountId: idOfHandle('missing_mina') }]) {
      for (const [name, call] of everyMethod(upstream.up, ref)) {
        expect([name, await kindOf(call())]).toEqual([name, 'NOT_FOUND']);
      }
    }
  });

  it('flaky_: UNAVAILABLE on every method, by handle and by id, and in search', async () => {
    for (const ref of [{ handle: 'flaky_mina' }, { accountId: idOfHandle('flaky_mina') }]) {
      for (const [name, call] of everyMethod(upstream.up, ref)) {
        expect([name, await kindOf(call())]).toEqual([name, 'UNAVAILABLE']);
      }
    }
    expect(await kindOf(upstream.up.search('flaky_x', 5))).toBe('UNAVAILABLE');
  });

  it('slow_: the right answer after the configured delay; a shorter timeout gives UNAVAILABLE', async () => {
    const ref = { accountId: idOfHandle('slow_mina') };
    const started = Date.now();
    const profile = await upstream.up.profile(ref, 'standard');
    expect(Date.now() - started).toBeGreaterThanOrEqual(SLOW_MS - 20);
    expect(profile).toMatchObject({ handle: 'slow_mina', isPrivate: false });
    expect((await upstream.up.posts(ref, { pageSize: 4 })).items).toHaveLength(4);
    const impatient = new HttpSocialUpstream({ baseUrl: upstream.sim.url, timeoutMs: SLOW_MS / 3 });
    expect(await kindOf(impatient.profile(ref, 'standard'))).toBe('UNAVAILABLE');
  });

  it('slow_: POST /_sim/answer-now sends the waiting answers at once (tests need not sit it out)', async () => {
    const patient = await startSocialUpstreamSimulator({
      host: '127.0.0.1',
      port: 0,
      slowDelayMs: 60_000,
    });
    try {
      const up = new HttpSocialUpstream({ baseUrl: patient.url, timeoutMs: 90_000 });
      const started = Date.now();
      const reading = up.profile({ handle: 'slow_now' }, 'standard');
      const answerNow = async () =>
        (
          (await (await fetch(`${patient.url}/_sim/answer-now`, { method: 'POST' })).json()) as {
            answered: number;
          }
        ).answered;
      // Asked until the read is waiting there: then exactly that one answer goes.
      let answered = 0;
      while (answered === 0) answered = await answerNow();
      expect(answered).toBe(1);
      expect(await reading).toMatchObject({ handle: 'slow_now' });
      expect(Date.now() - started).toBeLessThan(60_000);
      expect(await answerNow()).toBe(0);
    } finally {
      await patient.close();
    }
  });

  it('verified_: verified, and its followers are one fixed sample with no next page', async () => {
    const ref = { handle: 'verified_brand' };
    expect(await upstream.up.profile(ref, 'standard')).toMatchObject({ isVerified: true });
    const first = await upstream.up.followers(ref, { pageSize: 50 });
    expect(first.nextPageToken).toBeNull();
    expect(first.items).toHaveLength(50);
    expect(await upstream.up.followers(ref, { pageSize: 50, pageToken: '50' })).toStrictEqual(
      first,
    );
    expect((await upstream.up.followers(ref, { pageSize: 20 })).items).toStrictEqual(
      first.items.slice(0, 20),
    );
    const all = await fetch(
      `${upstream.sim.url}/api/v1/friendships/${idOfHandle('verified_brand')}/followers/?count=200`,
    );
    const raw = (await all.json()) as { users: unknown[]; next_max_id?: string };
    expect(raw.users).toHaveLength(100);
    expect(raw.next_max_id).toBeUndefined();
    const following = await upstream.up.following(ref, { pageSize: 50 });
    expect(following.nextPageToken).not.toBeNull();
  });

  it('noguides_: guides are UNSUPPORTED, everything else answers', async () => {
    expect(await kindOf(upstream.up.guides({ handle: 'noguides_mina' }, {}))).toBe('UNSUPPORTED');
    expect(await kindOf(upstream.up.posts({ handle: 'noguides_mina' }, { pageSize: 2 }))).toBe(
      'OK',
    );
  });

  it('keeps the scenario when an account is looked up by id', async () => {
    const id = idOfHandle('private_x');
    expect(await upstream.up.profile({ accountId: id }, 'standard')).toMatchObject({
      accountId: id,
      handle: 'private_x',
      isPrivate: true,
    });
    expect(await kindOf(upstream.up.posts({ accountId: id }, { pageSize: 2 }))).toBe('PRIVATE');
  });

  it('asks for the bearer credential when started with one', async () => {
    const guarded = await startSocialUpstreamSimulator({
      host: '127.0.0.1',
      port: 0,
      token: 's3cret',
    });
    try {
      const ok = new HttpSocialUpstream({ baseUrl: guarded.url, token: 's3cret' });
      expect((await ok.profile({ handle: 'mina.kim' }, 'standard')).handle).toBe('mina.kim');
      const anonymous = new HttpSocialUpstream({ baseUrl: guarded.url });
      expect(await kindOf(anonymous.profile({ handle: 'mina.kim' }, 'standard'))).toBe(
        'UNAVAILABLE',
      );
      expect((await fetch(`${guarded.url}/api/v1/users/1/info/`)).status).toBe(401);
      expect((await fetch(`${guarded.url}/healthz`)).status).toBe(200);
    } finally {
      await guarded.close();
    }
  });
});

import type { FastifyInstance } from 'fastify';
import { followers, following, related, searchAccounts, type SimAccount } from './accounts.js';
import { scenarioOf } from './ids.js';
import {
  answers,
  byHandle,
  byId,
  enter,
  offsetPage,
  pageSize,
  slowDown,
  type SimulatorSettings,
} from './gate.js';
import { clips } from './media.js';
import { infoUser, userShort, webProfileUser } from './raw.js';

type IdParams = { Params: { id: string } };
type FriendshipQuery = { count?: string; max_id?: string; query?: string };

const monthYear = (unixSeconds: number) =>
  new Date(unixSeconds * 1000).toLocaleString('en-US', {
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  });

/** Profile, friendships, suggestions, about-this-account and search. */
export function accountRoutes(app: FastifyInstance, settings: SimulatorSettings): void {
  const reelCount = (acc: SimAccount) => (acc.isPrivate ? 0 : clips(acc, settings.epoch).length);

  app.get<{ Querystring: { username?: string } }>(
    '/api/v1/users/web_profile_info/',
    async (request) => {
      const acc = await enter(settings, byHandle(request.query.username), 'profile');
      return { data: { user: webProfileUser(acc, reelCount(acc)) }, status: 'ok' };
    },
  );

  app.get<IdParams>('/api/v1/users/:id/info/', async (request) => {
    const acc = await enter(settings, byId(request.params.id), 'profile');
    return { user: infoUser(acc, reelCount(acc)), status: 'ok' };
  });

  const friendships = (list: (acc: SimAccount) => SimAccount[]) => {
    return async (request: { params: { id: string }; query: FriendshipQuery }) => {
      const acc = await enter(settings, byId(request.params.id), 'content');
      const all = list(acc);
      const query = request.query.query?.trim().toLowerCase();
      if (query) {
        const users = all
          .filter((u) => u.handle.includes(query) || u.fullName.toLowerCase().includes(query))
          .slice(0, 50);
        return { users: users.map(userShort), big_list: false, page_size: 50, status: 'ok' };
      }
      const count = pageSize(request.query.count, 25, 200);
      if (acc.scenario.verified && list === followers) {
        // A fixed sample: the same accounts whatever the page asked for, and no further page.
        return {
          users: all.slice(0, count).map(userShort),
          big_list: false,
          page_size: count,
          status: 'ok',
        };
      }
      const { page, nextMaxId } = offsetPage(all, count, request.query.max_id);
      return {
        users: page.map(userShort),
        big_list: nextMaxId !== undefined,
        page_size: count,
        ...(nextMaxId !== undefined ? { next_max_id: nextMaxId } : {}),
        status: 'ok',
      };
    };
  };
  app.get<IdParams & { Querystring: FriendshipQuery }>(
    '/api/v1/friendships/:id/followers/',
    friendships(followers),
  );
  app.get<IdParams & { Querystring: FriendshipQuery }>(
    '/api/v1/friendships/:id/following/',
    friendships(following),
  );

  app.get<{ Querystring: { target_id?: string } }>(
    '/api/v1/discover/chaining/',
    async (request) => {
      const acc = await enter(settings, byId(request.query.target_id), 'profile');
      const users = related(acc).map((u) => ({
        ...userShort(u),
        chaining_info: { sources: '[41]', algorithm: 'ig_chaining_v2' },
        social_context: 'Suggested for you',
      }));
      return { users, is_backup: false, status: 'ok' };
    },
  );

  app.get<IdParams>('/api/v1/users/:id/about_this_account/', async (request) => {
    const acc = await enter(settings, byId(request.params.id), 'profile');
    return {
      user: {
        pk: userShort(acc).pk,
        pk_id: acc.id,
        username: acc.handle,
        is_verified: acc.isVerified,
      },
      date_joined: monthYear(acc.joinedAt),
      date_joined_as_timestamp: acc.joinedAt,
      country: acc.country,
      former_usernames_count: acc.formerHandleCount,
      accounts_with_shared_followers_count: acc.sharedFollowerAccountCount,
      is_verified: acc.isVerified,
      verified_date: acc.verifiedAt === null ? null : monthYear(acc.verifiedAt),
      status: 'ok',
    };
  });

  app.get<{ Querystring: { query?: string; context?: string } }>(
    '/web/search/topsearch/',
    async (request) => {
      const query = request.query.query?.trim() ?? '';
      if (!query) throw answers.badRequest('query is required');
      const scenario = scenarioOf(query.toLowerCase());
      if (scenario.flaky) throw answers.unavailable();
      if (scenario.slow) await slowDown(settings);
      const found = scenario.missing ? [] : searchAccounts(query);
      const users = found.map((u, position) => ({
        position,
        user: {
          ...userShort(u),
          follower_count: u.followerCount,
          byline: `${u.followerCount.toLocaleString('en-US')} followers`,
          search_social_context: null,
        },
      }));
      return {
        users,
        places: [],
        hashtags: [],
        has_more: false,
        rank_token: `0.${query.length}`,
        status: 'ok',
      };
    },
  );
}

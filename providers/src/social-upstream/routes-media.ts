import type { FastifyInstance } from 'fastify';
import type { SimAccount } from './accounts.js';
import {
  answers,
  byId,
  enter,
  mediaPage,
  offsetPage,
  pageSize,
  slowDown,
  type SimulatorSettings,
} from './gate.js';
import * as media from './media.js';
import { mediaItem, storyItem, userShort } from './raw.js';

type IdParams = { Params: { id: string } };
type FeedQuery = { count?: string; max_id?: string };

const GUIDES_PAGE = 4;

/** Timeline, reels, tagged, guides, stories and highlights, live. */
export function mediaRoutes(app: FastifyInstance, settings: SimulatorSettings): void {
  const { epoch } = settings;

  /**
   * A page of an account's media feed: the account's content gate, then `count` items (12 unless
   * asked, at most `max`) after `max_id`, with the whole feed (`all`) for totals.
   */
  const feedPage = async (
    found: SimAccount | null,
    feed: (acc: SimAccount, epoch: number) => media.SimMedia[],
    { count, max_id }: FeedQuery,
    max: number,
  ) => {
    const acc = await enter(settings, found, 'content');
    const all = feed(acc, epoch);
    return { acc, all, ...mediaPage(all, pageSize(count, 12, max), max_id) };
  };

  /** The answer of a `feed`-style route (timeline, tagged): a page of items and `extra` fields. */
  const feedAnswer = (
    { page, more, nextMaxId }: Awaited<ReturnType<typeof feedPage>>,
    extra: Record<string, unknown>,
  ) => ({
    items: page.map(mediaItem),
    num_results: page.length,
    more_available: more,
    ...(nextMaxId ? { next_max_id: nextMaxId } : {}),
    ...extra,
    status: 'ok',
  });

  app.get<IdParams & { Querystring: FeedQuery }>('/api/v1/feed/user/:id/', async (request) => {
    const found = await feedPage(byId(request.params.id), media.timeline, request.query, 33);
    return feedAnswer(found, { user: userShort(found.acc), auto_load_more_enabled: true });
  });

  app.get<{ Querystring: { target_user_id?: string; page_size?: string; max_id?: string } }>(
    '/api/v1/clips/user/',
    async (request) => {
      const { target_user_id: id, page_size: count, max_id } = request.query;
      const { page, more, nextMaxId } = await feedPage(
        byId(id),
        media.clips,
        { count, max_id },
        50,
      );
      return {
        items: page.map((m) => ({ media: mediaItem(m) })),
        paging_info: { max_id: nextMaxId ?? null, more_available: more },
        status: 'ok',
      };
    },
  );

  app.get<IdParams & { Querystring: FeedQuery }>('/api/v1/usertags/:id/feed/', async (request) => {
    const found = await feedPage(byId(request.params.id), media.tagged, request.query, 50);
    return feedAnswer(found, { total_count: found.all.length });
  });

  app.get<IdParams & { Querystring: { max_id?: string } }>(
    '/api/v1/guides/user/:id/',
    async (request) => {
      const acc = await enter(settings, byId(request.params.id), 'content');
      if (acc.scenario.noGuides) throw answers.featureUnavailable();
      const { page, nextMaxId } = offsetPage(
        media.guides(acc, epoch),
        GUIDES_PAGE,
        request.query.max_id,
      );
      const guides = page.map((g) => ({
        summary: {
          id: g.id,
          title: g.title,
          description: g.description,
          owner: userShort(acc),
          num_items: g.items.length,
          type: 'posts',
          cover_media: g.items[0]
            ? { image_versions2: mediaItem(g.items[0]).image_versions2 ?? null }
            : null,
        },
        items: g.items.map((m) => ({ media: mediaItem(m) })),
      }));
      return {
        guides,
        more_available: nextMaxId !== undefined,
        ...(nextMaxId !== undefined ? { next_max_id: nextMaxId } : {}),
        status: 'ok',
      };
    },
  );

  app.get<{ Querystring: { reel_ids?: string | string[] } }>(
    '/api/v1/feed/reels_media/',
    async (request) => {
      const raw = request.query.reel_ids;
      const reelIds = (Array.isArray(raw) ? raw : raw ? [raw] : []).flatMap((r) => r.split(','));
      if (reelIds.length === 0 || reelIds.length > 20) {
        throw answers.badRequest('reel_ids must name 1 to 20 reels');
      }
      const wanted = reelIds.map((reelId) => {
        const highlight = media.parseHighlightReelId(reelId);
        return { reelId, highlight, acc: byId(highlight ? highlight.ownerId : reelId) };
      });
      if (wanted.some((w) => w.acc?.scenario.flaky)) throw answers.unavailable();
      if (wanted.some((w) => w.acc?.scenario.slow)) await slowDown(settings);
      const reels: Record<string, unknown> = {};
      for (const { reelId, highlight, acc } of wanted) {
        // Reels the viewer cannot see (missing or private accounts, none current) are left out.
        if (!acc || acc.scenario.missing || acc.isPrivate) continue;
        if (highlight) {
          const found = media.highlights(acc, epoch)[highlight.index];
          if (!found || found.reelId !== reelId) continue;
          reels[reelId] = reel(reelId, acc, found.items, {
            title: found.title,
            reel_type: 'highlight_reel',
          });
        } else {
          const items = media.stories(acc, epoch);
          if (items.length === 0) continue;
          reels[reelId] = reel(reelId, acc, items, {
            expiring_at: Math.max(...items.map((m) => m.expiringAt ?? 0)),
            reel_type: 'user_reel',
          });
        }
      }
      return { reels, reels_media: Object.values(reels), status: 'ok' };
    },
  );

  app.get<IdParams>('/api/v1/highlights/:id/highlights_tray/', async (request) => {
    const acc = await enter(settings, byId(request.params.id), 'content');
    const tray = media.highlights(acc, epoch).map((h) => ({
      id: h.reelId,
      strong_id__: h.reelId,
      title: h.title,
      media_count: h.items.length,
      created_at: h.createdAt,
      latest_reel_media: h.items.at(-1)?.takenAt ?? h.createdAt,
      cover_media: {
        cropped_image_version: {
          url: `https://scontent.cdn.social.sim/v/t51.12442-15/${h.reelId.slice(10)}_n.jpg`,
        },
      },
      user: userShort(acc),
      reel_type: 'highlight_reel',
      is_pinned_highlight: false,
    }));
    return { tray, show_empty_state: tray.length === 0, status: 'ok' };
  });

  app.get<{ Querystring: { target_user_id?: string } }>(
    '/api/v1/live/web_info/',
    async (request) => {
      const acc = await enter(settings, byId(request.query.target_user_id), 'content');
      const live = media.broadcast(acc, epoch);
      const broadcast = live && {
        id: live.id,
        broadcast_status: live.status,
        published_time: live.publishedTime,
        viewer_count: live.viewerCount,
        dash_playback_url: `https://live.cdn.social.sim/hls/${live.id}/manifest.mpd`,
        broadcast_message: '',
        broadcast_owner: userShort(acc),
      };
      return { broadcast, user: userShort(acc), status: 'ok' };
    },
  );
}

function reel(
  reelId: string,
  acc: SimAccount,
  items: media.SimMedia[],
  extra: Record<string, unknown>,
) {
  return {
    id: reelId,
    strong_id__: reelId,
    latest_reel_media: items.at(-1)?.takenAt ?? null,
    seen: 0,
    user: userShort(acc),
    items: items.map(storyItem),
    media_count: items.length,
    ...extra,
  };
}

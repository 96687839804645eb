import { account, generatedAccounts, type SimAccount } from './accounts.js';
import { hashDigits, rng, type Rng } from './random.js';
import * as W from './words.js';

export type SimLocation = (typeof W.LOCATIONS)[number];

/** One media item (post, reel, story or highlight item) of the simulated platform. */
export interface SimMedia {
  pk: string;
  code: string;
  owner: SimAccount;
  /** 1 image, 2 video, 8 carousel (the platform's numbering). */
  mediaType: 1 | 2 | 8;
  productType: 'feed' | 'clips' | 'carousel_container' | 'story';
  /** Unix seconds. */
  takenAt: number;
  likeCount: number | null;
  commentCount: number | null;
  playCount: number | null;
  videoDuration: number | null;
  caption: string | null;
  location: SimLocation | null;
  usertags: SimAccount[];
  paid: boolean;
  sponsors: SimAccount[];
  carousel: { pk: string; mediaType: 1 | 2 }[];
  expiringAt: number | null;
  storyMentions: SimAccount[];
  storyHashtags: string[];
}

const DAY = 86_400;
const IG_EPOCH_MS = 1_314_220_021_721n;
const SHORTCODE_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** A media id the way the platform makes them: milliseconds since its epoch, then a shard. */
function mediaPk(takenAt: number, key: string): string {
  const r = rng('pk', key);
  const ms = BigInt(takenAt) * 1000n + BigInt(r.int(0, 999)) - IG_EPOCH_MS;
  return ((ms << 23n) | BigInt(r.int(0, 8_388_607))).toString();
}

export function shortcodeOf(pk: string): string {
  let n = BigInt(pk);
  let out = '';
  while (n > 0n) {
    out = SHORTCODE_ALPHABET[Number(n % 64n)] + out;
    n /= 64n;
  }
  return out;
}

function caption(r: Rng, mentions: string[]): string | null {
  if (r.chance(0.1)) return null;
  const tags = r.sample(W.HASHTAGS, r.int(1, 6)).map((t) => `#${t}`);
  const parts: string[] = [r.pick(W.CAPTION_OPENERS), r.pick(W.CAPTION_MIDDLES)].filter(Boolean);
  if (mentions.length > 0) parts.push(`with ${mentions.map((m) => `@${m}`).join(' ')}`);
  return `${parts.join('\n')}\n.\n${tags.join(' ')}`;
}

interface MediaSpec {
  owner: SimAccount;
  key: string;
  takenAt: number;
  kind: 'image' | 'video' | 'clips' | 'carousel' | 'story';
  extraTags?: SimAccount[];
}

function buildMedia({ owner, key, takenAt, kind, extraTags = [] }: MediaSpec): SimMedia {
  const r = rng('media', key);
  const pk = mediaPk(takenAt, key);
  const isVideo = kind === 'video' || kind === 'clips' || (kind === 'story' && r.chance(0.3));
  const reach = owner.followerCount;
  const likes = Math.round(reach * r.float(0.004, 0.08));
  const base: SimMedia = {
    pk,
    code: shortcodeOf(pk),
    owner,
    mediaType: kind === 'carousel' ? 8 : isVideo ? 2 : 1,
    productType:
      kind === 'clips' || kind === 'story'
        ? kind
        : kind === 'carousel'
          ? 'carousel_container'
          : 'feed',
    takenAt,
    likeCount: likes,
    commentCount: Math.round(likes * r.float(0.005, 0.04)),
    playCount: isVideo ? Math.round(reach * r.float(0.1, 1.6)) : null,
    videoDuration: isVideo
      ? Math.round(r.float(kind === 'story' ? 3 : 6, kind === 'video' ? 180 : 90) * 1000) / 1000
      : null,
    caption: null,
    location: r.chance(0.4) ? r.pick(W.LOCATIONS) : null,
    usertags: [...extraTags],
    paid: false,
    sponsors: [],
    carousel: [],
    expiringAt: null,
    storyMentions: [],
    storyHashtags: [],
  };
  if (kind === 'story') {
    return {
      ...base,
      likeCount: null,
      commentCount: null,
      playCount: null,
      location: r.chance(0.15) ? r.pick(W.LOCATIONS) : null,
      usertags: [],
      storyMentions: r.chance(0.3)
        ? generatedAccounts(`story-mention:${key}`, 1, owner.handle)
        : [],
      storyHashtags: r.chance(0.25) ? [r.pick(W.HASHTAGS)] : [],
    };
  }
  if (r.chance(0.3))
    base.usertags.push(...generatedAccounts(`usertags:${key}`, r.int(1, 3), owner.handle));
  if (r.chance(0.12))
    base.sponsors = r.sample(W.BRANDS, r.int(1, 2)).map((brand) => account(brand));
  base.paid = base.sponsors.length > 0;
  const mentioned = [...base.sponsors, ...r.sample(base.usertags, r.int(0, 2))].map(
    (a) => a.handle,
  );
  base.caption = caption(r, mentioned);
  if (base.paid) base.caption = `${base.caption ?? ''} #ad`.trim();
  if (kind === 'carousel') {
    base.carousel = Array.from({ length: r.int(2, 10) }, (_, i) => ({
      pk: mediaPk(takenAt, `${key}:child:${i}`),
      mediaType: r.chance(0.2) ? 2 : 1,
    }));
  }
  return base;
}

const timelines = new Map<string, SimMedia[]>();

/** The account's timeline, newest first (postCount items; about a third are reels). */
export function timeline(acc: SimAccount, epoch: number): SimMedia[] {
  const cacheKey = `${epoch}:${acc.handle}`;
  const cached = timelines.get(cacheKey);
  if (cached) return cached;
  const r = rng('timeline', acc.handle);
  let takenAt = epoch - r.int(7200, 3 * DAY);
  const items: SimMedia[] = [];
  for (let i = 0; i < acc.postCount; i++) {
    const roll = r.next();
    const kind = roll < 0.32 ? 'clips' : roll < 0.52 ? 'carousel' : roll < 0.6 ? 'video' : 'image';
    items.push(buildMedia({ owner: acc, key: `${acc.handle}:post:${i}`, takenAt, kind }));
    takenAt -= r.int(DAY / 2, 6 * DAY);
  }
  if (timelines.size >= 2000) timelines.clear();
  timelines.set(cacheKey, items);
  return items;
}

export function clips(acc: SimAccount, epoch: number): SimMedia[] {
  return timeline(acc, epoch).filter((m) => m.productType === 'clips');
}

/** Posts of other accounts that tag this one, newest first (20 to 80). */
export function tagged(acc: SimAccount, epoch: number): SimMedia[] {
  const r = rng('tagged', acc.handle);
  const owners = generatedAccounts(`tagged-owners:${acc.handle}`, r.int(5, 15), acc.handle);
  let takenAt = epoch - r.int(3600, 2 * DAY);
  return Array.from({ length: r.int(20, 80) }, (_, i) => {
    const kind = r.pick(['image', 'image', 'carousel', 'clips'] as const);
    const item = buildMedia({
      owner: r.pick(owners),
      key: `${acc.handle}:tagged:${i}`,
      takenAt,
      kind,
      extraTags: [acc],
    });
    takenAt -= r.int(DAY / 4, 5 * DAY);
    return item;
  });
}

/** Current stories (the 24 hours before the epoch); about 40% of accounts have none. */
export function stories(acc: SimAccount, epoch: number): SimMedia[] {
  const r = rng('stories', acc.handle);
  if (r.chance(0.4)) return [];
  const count = r.int(1, 6);
  let takenAt = epoch - r.int(600, 6 * 3600);
  const items: SimMedia[] = [];
  for (let i = 0; i < count; i++) {
    const item = buildMedia({
      owner: acc,
      key: `${acc.handle}:story:${i}`,
      takenAt,
      kind: 'story',
    });
    items.unshift({ ...item, expiringAt: takenAt + DAY });
    takenAt -= r.int(600, 3 * 3600);
  }
  return items;
}

const HIGHLIGHT_OFFSET = 17_000_000_000_000_000n;

export function highlightReelId(acc: SimAccount, index: number): string {
  return `highlight:${BigInt(acc.id) * 100n + BigInt(index) + HIGHLIGHT_OFFSET}`;
}

/** The owner id and index behind a `highlight:` reel id, or null. */
export function parseHighlightReelId(reelId: string): { ownerId: string; index: number } | null {
  const match = /^highlight:(\d{1,40})$/.exec(reelId);
  if (!match) return null;
  const n = BigInt(match[1] as string) - HIGHLIGHT_OFFSET;
  if (n < 100n) return null;
  return { ownerId: (n / 100n).toString(), index: Number(n % 100n) };
}

export interface SimHighlight {
  reelId: string;
  title: string;
  createdAt: number;
  items: SimMedia[];
}

export function highlights(acc: SimAccount, epoch: number): SimHighlight[] {
  const r = rng('highlights', acc.handle);
  const titles = r.sample(W.HIGHLIGHT_TITLES, acc.highlightCount);
  return titles.map((title, index) => {
    const createdAt = epoch - r.int(30, 900) * DAY;
    const items = Array.from({ length: r.int(3, 15) }, (_, i) =>
      buildMedia({
        owner: acc,
        key: `${acc.handle}:highlight:${index}:${i}`,
        takenAt: createdAt + i * 3600,
        kind: 'story',
      }),
    );
    return { reelId: highlightReelId(acc, index), title, createdAt, items };
  });
}

export interface SimGuide {
  id: string;
  title: string;
  description: string;
  items: SimMedia[];
}

export function guides(acc: SimAccount, epoch: number): SimGuide[] {
  const r = rng('guides', acc.handle);
  const posts = timeline(acc, epoch);
  return r.sample(W.GUIDE_TITLES, r.int(2, 7)).map((title, i) => ({
    id: hashDigits(`guide:${acc.handle}:${i}`, 17),
    title,
    description: [
      `${title}: the places and things I keep coming back to.`,
      r.pick(W.CAPTION_MIDDLES),
      'Updated whenever I find something new worth sharing with you all, so check back often.',
    ].join(' '),
    items: r.sample(posts, r.int(3, 8)),
  }));
}

export interface SimBroadcast {
  id: string;
  status: 'active';
  publishedTime: number;
  viewerCount: number;
}

/** About one account in five is live at the epoch. */
export function broadcast(acc: SimAccount, epoch: number): SimBroadcast | null {
  const r = rng('live', acc.handle);
  if (!r.chance(0.2)) return null;
  return {
    id: hashDigits(`broadcast:${acc.handle}`, 17),
    status: 'active',
    publishedTime: epoch - r.int(60, 5400),
    viewerCount: Math.max(1, Math.round(acc.followerCount * r.float(0.0005, 0.01))),
  };
}

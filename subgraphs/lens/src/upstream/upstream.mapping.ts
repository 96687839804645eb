import type {
  About,
  AccountSummary,
  Broadcast,
  CarouselItem,
  ExtendedProfile,
  Guide,
  Highlight,
  Location,
  Post,
  StorySet,
  UpstreamPage,
} from './upstream.port.js';
import type {
  Id,
  RawAbout,
  RawGuide,
  RawLiveInfo,
  RawLocation,
  RawMedia,
  RawReel,
  RawUser,
} from './upstream.raw.js';
import { monthOf, parseHashtags, parseMentions, preview } from './upstream.text.js';

/**
 * Raw platform JSON → the documented shapes (lens specification, section 2). Every documented
 * field is always present; a value the platform did not give (or gave with the wrong type) is null.
 */

const text = (v: unknown): string | null => (typeof v === 'string' ? v : null);
export const nonEmpty = (v: unknown): string | null =>
  typeof v === 'string' && v.trim() ? v : null;
const flag = (v: unknown): boolean | null => (typeof v === 'boolean' ? v : null);
export const count = (v: unknown): number | null =>
  typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : null;
const coordinate = (v: unknown): number | null =>
  typeof v === 'number' && Number.isFinite(v) ? v : null;

/** An id as a decimal string (the platform sends some as numbers, some as strings). */
export function idText(v: Id | null | undefined): string | null {
  if (typeof v === 'number') return Number.isSafeInteger(v) && v > 0 ? String(v) : null;
  if (typeof v === 'string' && /^\d{1,40}$/.test(v)) return v;
  return null;
}

/** `pk_id` and `strong_id__` are strings; `pk` may be a number that lost precision: last. */
export function accountIdOf(raw: RawUser | null | undefined): string | null {
  if (!raw) return null;
  return idText(raw.pk_id) ?? idText(raw.strong_id__) ?? idText(raw.id) ?? idText(raw.pk);
}

export function mapAccountSummary(raw: RawUser | null | undefined): AccountSummary {
  const u = raw ?? {};
  return {
    accountId: accountIdOf(u),
    handle: nonEmpty(u.username),
    displayName: nonEmpty(u.full_name),
    biography: text(u.biography),
    isPrivate: flag(u.is_private),
    isVerified: flag(u.is_verified),
    followerCount: count(u.edge_followed_by?.count) ?? count(u.follower_count),
    followingCount: count(u.edge_follow?.count) ?? count(u.following_count),
    postCount: count(u.edge_owner_to_timeline_media?.count) ?? count(u.media_count),
    category: nonEmpty(u.category_name) ?? nonEmpty(u.category),
  };
}

/** The web profile (`edge_*`, `business_*`) and the app profile (`*_count`, `public_*`) alike. */
export function mapExtendedProfile(raw: RawUser): ExtendedProfile {
  return {
    ...mapAccountSummary(raw),
    externalUrl: nonEmpty(raw.external_url),
    profilePictureUrl:
      nonEmpty(raw.profile_pic_url_hd) ??
      nonEmpty(raw.hd_profile_pic_url_info?.url) ??
      nonEmpty(raw.profile_pic_url),
    isBusinessAccount: flag(raw.is_business_account) ?? flag(raw.is_business),
    businessEmail: nonEmpty(raw.business_email) ?? nonEmpty(raw.public_email),
    businessPhone:
      nonEmpty(raw.business_phone_number) ??
      nonEmpty(raw.public_phone_number) ??
      nonEmpty(raw.contact_phone_number),
    pronouns: Array.isArray(raw.pronouns)
      ? raw.pronouns.filter((p): p is string => typeof p === 'string')
      : null,
    highlightCount: count(raw.highlight_reel_count),
    reelCount: count(raw.edge_felix_video_timeline?.count) ?? count(raw.total_clips_count),
  };
}

export function mapLocation(raw: RawLocation | null | undefined): Location | null {
  if (!raw) return null;
  return {
    placeId: idText(raw.pk),
    name: nonEmpty(raw.name) ?? nonEmpty(raw.short_name),
    city: nonEmpty(raw.city),
    address: nonEmpty(raw.address),
    latitude: coordinate(raw.lat),
    longitude: coordinate(raw.lng),
    postCount: count(raw.media_count),
  };
}

/** media_type 1 image, 2 video, 8 carousel; an unknown type is judged by what the item carries. */
export function mapFormat(raw: RawMedia): Post['format'] {
  if (raw.media_type === 8) return 'carousel';
  if (raw.media_type === 2) return 'video';
  if (raw.media_type === 1) return 'image';
  if (Array.isArray(raw.carousel_media) && raw.carousel_media.length > 0) return 'carousel';
  return Array.isArray(raw.video_versions) && raw.video_versions.length > 0 ? 'video' : 'image';
}

function mapCarouselItem(raw: RawMedia): CarouselItem {
  return { postId: mediaIdOf(raw), format: mapFormat(raw) === 'video' ? 'video' : 'image' };
}

function mediaIdOf(raw: RawMedia): string | null {
  return idText(raw.pk) ?? idText(typeof raw.id === 'string' ? raw.id.split('_')[0] : null);
}

const users = (list: ({ user?: RawUser | null } | null)[] | null | undefined): RawUser[] =>
  (list ?? []).flatMap((entry) => (entry?.user ? [entry.user] : []));

/**
 * Mentions: a story's `reel_mentions` when given; otherwise the caption's `@handles` (with what
 * the tags tell about them) followed by the tagged accounts the caption does not name.
 */
function mentionsOf(raw: RawMedia, caption: string | null): AccountSummary[] {
  if (Array.isArray(raw.reel_mentions)) return users(raw.reel_mentions).map(mapAccountSummary);
  const tagged = users(raw.usertags?.in);
  const known = [
    ...tagged,
    ...(raw.sponsor_tags ?? []).flatMap((t) => (t?.sponsor ? [t.sponsor] : [])),
  ];
  const byHandle = new Map(known.map((u) => [nonEmpty(u.username)?.toLowerCase(), u]));
  const named = caption ? parseMentions(caption) : [];
  const out = named.map((handle) =>
    mapAccountSummary(byHandle.get(handle) ?? { username: handle }),
  );
  for (const user of tagged) {
    const handle = nonEmpty(user.username)?.toLowerCase();
    if (!handle || !named.includes(handle)) out.push(mapAccountSummary(user));
  }
  return out;
}

/** Hashtags: a story's `story_hashtags` when given, else the caption's; null with neither. */
function hashtagsOf(raw: RawMedia, caption: string | null): string[] | null {
  if (Array.isArray(raw.story_hashtags)) {
    return raw.story_hashtags.flatMap((t) => {
      const name = nonEmpty(t?.hashtag?.name);
      return name ? [name.replace(/^#/, '').toLowerCase()] : [];
    });
  }
  return caption === null ? null : parseHashtags(caption);
}

/** `owner` replaces the item's own (often partial) user, e.g. the profile behind a story set. */
export function mapPost(raw: RawMedia, owner?: AccountSummary): Post {
  const caption = text(raw.caption?.text);
  const format = mapFormat(raw);
  return {
    postId: mediaIdOf(raw),
    shortcode: nonEmpty(raw.code),
    format,
    publishedAt: count(raw.taken_at),
    likeCount: count(raw.like_count),
    commentCount: count(raw.comment_count),
    viewCount: count(raw.play_count) ?? count(raw.view_count),
    durationSeconds: count(raw.video_duration),
    expiresAt: count(raw.expiring_at) || null,
    mentions: mentionsOf(raw, caption),
    hashtags: hashtagsOf(raw, caption),
    captionPreview: preview(caption),
    owner: owner ?? mapAccountSummary(raw.user ?? raw.owner),
    location: mapLocation(raw.location ?? raw.story_locations?.[0]?.location),
    isPaidPartnership: flag(raw.is_paid_partnership),
    sponsorAccounts: (raw.sponsor_tags ?? []).flatMap((t) =>
      t?.sponsor ? [mapAccountSummary(t.sponsor)] : [],
    ),
    carousel: format === 'carousel' ? (raw.carousel_media ?? []).map(mapCarouselItem) : [],
  };
}

/** A page: the token is the platform's `next_max_id`, null when it says there is no more. */
export function mapPage<R, T>(
  items: R[] | null | undefined,
  map: (item: R) => T,
  nextMaxId: Id | null | undefined,
  moreAvailable?: boolean | null,
): UpstreamPage<T> {
  const token = nextMaxId === null || nextMaxId === undefined ? '' : String(nextMaxId);
  return {
    items: (items ?? []).map(map),
    nextPageToken: moreAvailable === false || token === '' ? null : token,
  };
}

export function mapGuide(raw: RawGuide): Guide {
  const summary = raw.summary ?? {};
  return {
    guideId: idText(summary.id),
    title: nonEmpty(summary.title),
    descriptionPreview: preview(summary.description),
    owner: mapAccountSummary(summary.owner),
    posts: (raw.items ?? []).flatMap((i) => (i?.media ? [mapPost(i.media)] : [])),
  };
}

/** A tray entry and its reel (null when the reel was not delivered). */
export function mapHighlight(tray: RawReel, reel: RawReel | null | undefined): Highlight {
  const owner = mapAccountSummary(tray.user ?? reel?.user);
  const items = reel?.items ?? [];
  return {
    highlightId: idText(String(tray.id ?? '').replace(/^highlight:/, '')),
    title: nonEmpty(tray.title),
    itemCount: count(tray.media_count) ?? (reel ? items.length : null),
    owner,
    stories: items.map((item) => mapPost(item, owner)),
  };
}

export function mapStorySet(account: AccountSummary, reel: RawReel | null | undefined): StorySet {
  return { account, stories: (reel?.items ?? []).map((item) => mapPost(item, account)) };
}

const BROADCAST_STATES: Record<string, string> = {
  active: 'live',
  interrupted: 'interrupted',
  stopped: 'ended',
  hard_stop: 'ended',
};

/** state: live, interrupted, ended, or offline when the account has no broadcast. */
export function mapBroadcast(raw: RawLiveInfo): Broadcast {
  const b = raw.broadcast;
  const status = nonEmpty(b?.broadcast_status)?.toLowerCase() ?? null;
  return {
    broadcastId: idText(b?.id),
    state: b ? (status === null ? null : (BROADCAST_STATES[status] ?? status)) : 'offline',
    startedAt: count(b?.published_time),
    viewerCount: count(b?.viewer_count),
    owner: mapAccountSummary(b?.broadcast_owner ?? raw.user),
  };
}

export function mapAbout(raw: RawAbout): About {
  return {
    accountId: accountIdOf(raw.user),
    joinedAt: monthOf(raw.date_joined, raw.date_joined_as_timestamp),
    country: nonEmpty(raw.country),
    formerHandleCount: count(raw.former_usernames_count),
    sharedFollowerAccountCount: count(raw.accounts_with_shared_followers_count),
    verifiedAt: monthOf(raw.verified_date),
    isVerified: flag(raw.is_verified) ?? flag(raw.user?.is_verified),
  };
}

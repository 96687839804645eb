import type { SimAccount } from './accounts.js';
import type { SimMedia } from './media.js';

/**
 * The simulated platform's raw JSON, shaped like its public web and app API: snake_case, `pk`
 * numbers (a string when too large for a double, with `pk_id` always a string), `edge_*` counts on
 * the web profile, image and video candidates, and so on.
 */

type Json = Record<string, unknown>;

function pk(id: string): number | string {
  const n = Number(id);
  return Number.isSafeInteger(n) ? n : id;
}

/** The short user object that lists, media owners and tags carry. */
export function userShort(acc: SimAccount): Json {
  return {
    pk: pk(acc.id),
    pk_id: acc.id,
    id: acc.id,
    strong_id__: acc.id,
    username: acc.handle,
    full_name: acc.fullName,
    is_private: acc.isPrivate,
    is_verified: acc.isVerified,
    profile_pic_id: `${acc.id}_0`,
    profile_pic_url: acc.profilePicUrl,
    has_anonymous_profile_picture: false,
    latest_reel_media: 0,
  };
}

/** `data.user` of `/api/v1/users/web_profile_info/`. */
export function webProfileUser(acc: SimAccount, reelCount: number): Json {
  return {
    id: acc.id,
    fbid: `1784${acc.id.slice(0, 11)}`,
    username: acc.handle,
    full_name: acc.fullName,
    biography: acc.biography,
    bio_links: acc.externalUrl ? [{ title: '', url: acc.externalUrl, link_type: 'external' }] : [],
    external_url: acc.externalUrl,
    is_private: acc.isPrivate,
    is_verified: acc.isVerified,
    is_business_account: acc.isBusiness,
    is_professional_account: acc.isBusiness || acc.category !== null,
    category_name: acc.category,
    business_category_name: acc.isBusiness ? acc.category : null,
    business_email: acc.businessEmail,
    business_phone_number: acc.businessPhone,
    business_contact_method: acc.isBusiness ? 'UNKNOWN' : null,
    pronouns: acc.pronouns,
    profile_pic_url: acc.profilePicUrl,
    profile_pic_url_hd: acc.profilePicUrl.replace('_n.jpg', '_hd.jpg'),
    highlight_reel_count: acc.highlightCount,
    edge_followed_by: { count: acc.followerCount },
    edge_follow: { count: acc.followingCount },
    edge_owner_to_timeline_media: {
      count: acc.postCount,
      page_info: { has_next_page: true, end_cursor: null },
      edges: [],
    },
    edge_felix_video_timeline: { count: reelCount, edges: [] },
    edge_mutual_followed_by: { count: 0, edges: [] },
    has_clips: reelCount > 0,
    has_guides: !acc.scenario.noGuides,
    followed_by_viewer: false,
    follows_viewer: false,
    blocked_by_viewer: false,
    restricted_by_viewer: null,
  };
}

/** `user` of `/api/v1/users/{id}/info/` (the app API's names for the same facts). */
export function infoUser(acc: SimAccount, reelCount: number): Json {
  return {
    ...userShort(acc),
    biography: acc.biography,
    external_url: acc.externalUrl ?? '',
    follower_count: acc.followerCount,
    following_count: acc.followingCount,
    media_count: acc.postCount,
    total_clips_count: reelCount,
    category: acc.category ?? '',
    is_business: acc.isBusiness,
    account_type: acc.isBusiness ? 2 : acc.category ? 3 : 1,
    public_email: acc.businessEmail ?? '',
    public_phone_number: acc.businessPhone ?? '',
    contact_phone_number: acc.businessPhone ?? '',
    pronouns: acc.pronouns,
    highlight_reel_count: acc.highlightCount,
    hd_profile_pic_url_info: {
      url: acc.profilePicUrl.replace('_n.jpg', '_hd.jpg'),
      width: 1080,
      height: 1080,
    },
  };
}

function imageVersions(m: { pk: string }): Json {
  const url = `https://scontent.cdn.social.sim/v/t51.29350-15/${m.pk}_n.jpg`;
  return {
    candidates: [
      { width: 1080, height: 1350, url },
      { width: 640, height: 800, url: url.replace('_n.jpg', '_640.jpg') },
    ],
  };
}

function videoVersions(m: { pk: string }): Json[] {
  return [
    {
      type: 101,
      width: 720,
      height: 1280,
      url: `https://scontent.cdn.social.sim/o1/v/t16/${m.pk}.mp4`,
    },
  ];
}

function locationRaw(m: SimMedia): Json | undefined {
  if (!m.location) return undefined;
  const l = m.location;
  return {
    pk: Number(l.pk),
    short_name: l.name.split(',')[0],
    facebook_places_id: Number(l.pk) + 100000,
    external_source: 'facebook_places',
    name: l.name,
    address: l.address,
    city: l.city,
    has_viewer_saved: false,
    lng: l.lng,
    lat: l.lat,
  };
}

/** One item of a media feed (timeline, tagged, clips `media`, guide items). */
export function mediaItem(m: SimMedia): Json {
  const item: Json = {
    taken_at: m.takenAt,
    pk: m.pk,
    id: `${m.pk}_${m.owner.id}`,
    device_timestamp: m.takenAt * 1_000_000,
    media_type: m.mediaType,
    code: m.code,
    product_type: m.productType,
    caption_is_edited: false,
    comment_count: m.commentCount,
    like_count: m.likeCount,
    like_and_view_counts_disabled: false,
    user: userShort(m.owner),
    caption:
      m.caption === null
        ? null
        : { pk: `${m.pk}1`, text: m.caption, created_at: m.takenAt, type: 1 },
    is_paid_partnership: m.paid,
    commerciality_status: m.paid ? 'commercial' : 'not_commercial',
    can_viewer_save: true,
    organic_tracking_token: 'eyJ2ZXJzaW9uIjo1fQ==',
  };
  if (m.mediaType === 8) {
    item.carousel_media_count = m.carousel.length;
    item.carousel_media = m.carousel.map((c) => ({
      id: `${c.pk}_${m.owner.id}`,
      pk: c.pk,
      media_type: c.mediaType,
      carousel_parent_id: `${m.pk}_${m.owner.id}`,
      image_versions2: imageVersions(c),
      ...(c.mediaType === 2 ? { video_versions: videoVersions(c), video_duration: 12.5 } : {}),
    }));
  } else {
    item.image_versions2 = imageVersions(m);
  }
  if (m.mediaType === 2) {
    item.video_versions = videoVersions(m);
    item.video_duration = m.videoDuration;
    item.play_count = m.playCount;
    item.has_audio = true;
  }
  const location = locationRaw(m);
  if (location) item.location = location;
  if (m.usertags.length > 0) {
    item.usertags = {
      in: m.usertags.map((u, i) => ({
        user: userShort(u),
        position: [0.2 + 0.1 * i, 0.6],
        start_time_in_video_in_sec: null,
      })),
    };
  }
  if (m.sponsors.length > 0) {
    item.sponsor_tags = m.sponsors.map((s) => ({
      sponsor: userShort(s),
      permission: true,
      sponsor_id: s.id,
    }));
  }
  return item;
}

/** One item of a reel (current stories or a highlight) in `/api/v1/feed/reels_media/`. */
export function storyItem(m: SimMedia): Json {
  const item: Json = {
    taken_at: m.takenAt,
    pk: m.pk,
    id: `${m.pk}_${m.owner.id}`,
    media_type: m.mediaType,
    code: m.code,
    product_type: 'story',
    caption: null,
    user: {
      pk: pk(m.owner.id),
      pk_id: m.owner.id,
      username: m.owner.handle,
      is_private: m.owner.isPrivate,
    },
    image_versions2: imageVersions(m),
    is_paid_partnership: false,
    can_reply: true,
  };
  if (m.expiringAt !== null) item.expiring_at = m.expiringAt;
  if (m.mediaType === 2) {
    item.video_versions = videoVersions(m);
    item.video_duration = m.videoDuration;
  }
  if (m.storyMentions.length > 0) {
    item.reel_mentions = m.storyMentions.map((u) => ({
      user: userShort(u),
      x: 0.5,
      y: 0.4,
      width: 0.3,
      height: 0.05,
    }));
  }
  if (m.storyHashtags.length > 0) {
    item.story_hashtags = m.storyHashtags.map((name) => ({
      hashtag: { name, id: `1784${name.length}00` },
      x: 0.5,
      y: 0.7,
    }));
  }
  const location = locationRaw(m);
  if (location) item.story_locations = [{ location, x: 0.5, y: 0.2 }];
  return item;
}

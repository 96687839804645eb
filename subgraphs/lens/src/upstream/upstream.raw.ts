/**
 * The raw JSON of the social platform's public web and app API, as far as the adapter reads it.
 * Every field is optional and may be null: the platform omits and nulls fields freely, and the
 * mapping (`upstream.mapping.ts`) checks each value's type at run time.
 */

export type Id = string | number;

export interface RawCount {
  count?: number | null;
}

export interface RawUser {
  pk?: Id | null;
  pk_id?: string | null;
  id?: Id | null;
  strong_id__?: string | null;
  username?: string | null;
  full_name?: string | null;
  biography?: string | null;
  is_private?: boolean | null;
  is_verified?: boolean | null;
  /** Web profile counts. */
  edge_followed_by?: RawCount | null;
  edge_follow?: RawCount | null;
  edge_owner_to_timeline_media?: RawCount | null;
  edge_felix_video_timeline?: RawCount | null;
  /** App API counts. */
  follower_count?: number | null;
  following_count?: number | null;
  media_count?: number | null;
  total_clips_count?: number | null;
  category_name?: string | null;
  category?: string | null;
  external_url?: string | null;
  profile_pic_url?: string | null;
  profile_pic_url_hd?: string | null;
  hd_profile_pic_url_info?: { url?: string | null } | null;
  is_business_account?: boolean | null;
  is_business?: boolean | null;
  business_email?: string | null;
  public_email?: string | null;
  business_phone_number?: string | null;
  public_phone_number?: string | null;
  contact_phone_number?: string | null;
  pronouns?: string[] | null;
  highlight_reel_count?: number | null;
}

export interface RawLocation {
  pk?: Id | null;
  name?: string | null;
  short_name?: string | null;
  city?: string | null;
  address?: string | null;
  lat?: number | null;
  lng?: number | null;
  media_count?: number | null;
}

export interface RawMedia {
  pk?: Id | null;
  id?: string | null;
  code?: string | null;
  media_type?: number | null;
  product_type?: string | null;
  taken_at?: number | null;
  expiring_at?: number | null;
  like_count?: number | null;
  comment_count?: number | null;
  play_count?: number | null;
  view_count?: number | null;
  video_duration?: number | null;
  video_versions?: unknown[] | null;
  caption?: { text?: string | null } | null;
  user?: RawUser | null;
  owner?: RawUser | null;
  location?: RawLocation | null;
  story_locations?: { location?: RawLocation | null }[] | null;
  usertags?: { in?: { user?: RawUser | null }[] | null } | null;
  reel_mentions?: { user?: RawUser | null }[] | null;
  story_hashtags?: { hashtag?: { name?: string | null } | null }[] | null;
  is_paid_partnership?: boolean | null;
  sponsor_tags?: { sponsor?: RawUser | null }[] | null;
  carousel_media?: RawMedia[] | null;
}

/** `/api/v1/feed/user/{id}/` and `/api/v1/usertags/{id}/feed/`. */
export interface RawMediaFeed {
  items?: RawMedia[] | null;
  more_available?: boolean | null;
  next_max_id?: Id | null;
}

/** `/api/v1/clips/user/`. */
export interface RawClipsFeed {
  items?: { media?: RawMedia | null }[] | null;
  paging_info?: { max_id?: Id | null; more_available?: boolean | null } | null;
}

/** `/api/v1/friendships/{id}/followers/`, `.../following/`. */
export interface RawUserList {
  users?: RawUser[] | null;
  next_max_id?: Id | null;
}

export interface RawGuide {
  summary?: {
    id?: Id | null;
    title?: string | null;
    description?: string | null;
    owner?: RawUser | null;
  } | null;
  items?: { media?: RawMedia | null }[] | null;
}

/** `/api/v1/guides/user/{id}/`. */
export interface RawGuideFeed {
  guides?: RawGuide[] | null;
  more_available?: boolean | null;
  next_max_id?: Id | null;
}

export interface RawReel {
  id?: Id | null;
  title?: string | null;
  media_count?: number | null;
  user?: RawUser | null;
  items?: RawMedia[] | null;
}

/** `/api/v1/feed/reels_media/`: reels by reel id (a user id, or `highlight:<id>`). */
export interface RawReelsMedia {
  reels?: Record<string, RawReel | null> | null;
}

/** `/api/v1/highlights/{id}/highlights_tray/`. */
export interface RawHighlightsTray {
  tray?: RawReel[] | null;
}

/** `/api/v1/live/web_info/`. */
export interface RawLiveInfo {
  broadcast?: {
    id?: Id | null;
    broadcast_status?: string | null;
    published_time?: number | null;
    viewer_count?: number | null;
    broadcast_owner?: RawUser | null;
  } | null;
  user?: RawUser | null;
}

/** `/api/v1/users/{id}/about_this_account/`. */
export interface RawAbout {
  user?: RawUser | null;
  date_joined?: string | null;
  date_joined_as_timestamp?: number | null;
  country?: string | null;
  former_usernames_count?: number | null;
  accounts_with_shared_followers_count?: number | null;
  is_verified?: boolean | null;
  verified_date?: string | null;
}

/** `/web/search/topsearch/`. */
export interface RawTopSearch {
  users?: { position?: number | null; user?: RawUser | null }[] | null;
}

/** An error answer: `{"message": ..., "status": "fail", ...}`. */
export interface RawFailure {
  message?: string | null;
  status?: string | null;
  error_type?: string | null;
  spam?: boolean | null;
  require_login?: boolean | null;
}

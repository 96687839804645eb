/**
 * The port to the social-data upstream. The lens subgraph depends on this interface only; the
 * HTTP adapter (`upstream.http.ts`) implements it against the platform's public web JSON, served
 * either by the real platform or by the simulated server in `providers/src/social-upstream`.
 *
 * Shapes are the documented ones of the lens specification, section 2. Numbers that the
 * specification types as "number >= 0" are plain JS numbers (counts, unix seconds).
 */

export type AccountRef = { handle: string } | { accountId: string };

export interface AccountSummary {
  accountId: string | null;
  handle: string | null;
  displayName: string | null;
  biography: string | null;
  isPrivate: boolean | null;
  isVerified: boolean | null;
  followerCount: number | null;
  followingCount: number | null;
  postCount: number | null;
  category: string | null;
}

/** Profile fields added by `detail: extended` (names are ours; the specification leaves them open). */
export interface ExtendedProfileFields {
  externalUrl: string | null;
  profilePictureUrl: string | null;
  isBusinessAccount: boolean | null;
  businessEmail: string | null;
  businessPhone: string | null;
  pronouns: string[] | null;
  highlightCount: number | null;
  reelCount: number | null;
}

export type ExtendedProfile = AccountSummary & ExtendedProfileFields;

export interface Location {
  placeId: string | null;
  name: string | null;
  city: string | null;
  address: string | null;
  latitude: number | null;
  longitude: number | null;
  postCount: number | null;
}

export interface CarouselItem {
  postId: string | null;
  format: 'image' | 'video';
}

export interface Post {
  postId: string | null;
  shortcode: string | null;
  format: 'image' | 'video' | 'carousel';
  publishedAt: number | null;
  likeCount: number | null;
  commentCount: number | null;
  viewCount: number | null;
  durationSeconds: number | null;
  expiresAt: number | null;
  mentions: AccountSummary[];
  hashtags: string[] | null;
  /** The caption's first 150 characters (graphemes), ending with "…" when cut. */
  captionPreview: string | null;
  owner: AccountSummary;
  location: Location | null;
  isPaidPartnership: boolean | null;
  sponsorAccounts: AccountSummary[];
  carousel: CarouselItem[];
}

export interface Guide {
  guideId: string | null;
  title: string | null;
  descriptionPreview: string | null;
  owner: AccountSummary;
  posts: Post[];
}

export interface Highlight {
  highlightId: string | null;
  title: string | null;
  itemCount: number | null;
  owner: AccountSummary;
  stories: Post[];
}

export interface StorySet {
  account: AccountSummary;
  stories: Post[];
}

export interface Broadcast {
  broadcastId: string | null;
  /** `live`, `interrupted`, `ended`, or `offline` (no broadcast: the other fields are null). */
  state: string | null;
  startedAt: number | null;
  viewerCount: number | null;
  owner: AccountSummary;
}

export interface About {
  accountId: string | null;
  /** `YYYY-MM`: the platform tells the month only (so for `verifiedAt`). */
  joinedAt: string | null;
  country: string | null;
  formerHandleCount: number | null;
  sharedFollowerAccountCount: number | null;
  verifiedAt: string | null;
  isVerified: boolean | null;
}

/** One upstream page. `nextPageToken` is the upstream's own continuation token (never shown to
 * clients: the engine wraps it in a signed cursor). */
export interface UpstreamPage<T> {
  items: T[];
  nextPageToken: string | null;
}

export interface PageRequest {
  pageSize: number;
  pageToken?: string | null;
}

/** Every upstream failure is one of these; the engine maps `kind` onto the error catalogue. */
export type UpstreamFailureKind =
  | 'NOT_FOUND' // ACCOUNT_NOT_FOUND, 404
  | 'PRIVATE' // ACCOUNT_PRIVATE, 403
  | 'RATE_LIMITED' // UPSTREAM_RATE_LIMITED, 429, retryable
  | 'UNAVAILABLE' // UPSTREAM_UNAVAILABLE, 503, retryable
  | 'UNSUPPORTED'; // FEATURE_UNAVAILABLE, 503 (legacy guides)

export class UpstreamError extends Error {
  constructor(
    readonly kind: UpstreamFailureKind,
    message: string,
  ) {
    super(message);
    this.name = 'UpstreamError';
  }
}

export interface SocialUpstream {
  profile(
    ref: AccountRef,
    detail: 'standard' | 'extended',
  ): Promise<AccountSummary | ExtendedProfile>;
  posts(ref: AccountRef, page: PageRequest): Promise<UpstreamPage<Post>>;
  reels(ref: AccountRef, page: PageRequest): Promise<UpstreamPage<Post>>;
  taggedPosts(ref: AccountRef, page: PageRequest): Promise<UpstreamPage<Post>>;
  /** `search` filters the list and disables paging (lens spec section 4, rule 1). */
  followers(
    ref: AccountRef,
    page: PageRequest,
    search?: string,
  ): Promise<UpstreamPage<AccountSummary>>;
  following(
    ref: AccountRef,
    page: PageRequest,
    search?: string,
  ): Promise<UpstreamPage<AccountSummary>>;
  /** Legacy: UNSUPPORTED where the platform no longer offers guides for the account. */
  guides(ref: AccountRef, page: { pageToken?: string | null }): Promise<UpstreamPage<Guide>>;
  /**
   * One story set per ref, in the order given (an account without current stories has none).
   * A missing account fails the call with NOT_FOUND, a private one with PRIVATE.
   */
  stories(refs: AccountRef[]): Promise<StorySet[]>;
  highlights(ref: AccountRef): Promise<Highlight[]>;
  broadcast(ref: AccountRef): Promise<Broadcast>;
  related(ref: AccountRef): Promise<AccountSummary[]>;
  about(ref: AccountRef): Promise<About>;
  /** At most `limit` (<= 50) accounts. */
  search(query: string, limit: number): Promise<AccountSummary[]>;
}

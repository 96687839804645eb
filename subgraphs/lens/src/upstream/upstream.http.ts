import { UpstreamJsonClient, type HttpSocialUpstreamOptions } from './upstream.client.js';
import {
  accountIdOf,
  mapAbout,
  mapAccountSummary,
  mapBroadcast,
  mapExtendedProfile,
  mapGuide,
  mapHighlight,
  mapPage,
  mapPost,
  mapStorySet,
} from './upstream.mapping.js';
import {
  UpstreamError,
  type About,
  type AccountRef,
  type AccountSummary,
  type Broadcast,
  type ExtendedProfile,
  type Guide,
  type Highlight,
  type PageRequest,
  type Post,
  type SocialUpstream,
  type StorySet,
  type UpstreamPage,
} from './upstream.port.js';
import type {
  RawAbout,
  RawClipsFeed,
  RawGuideFeed,
  RawHighlightsTray,
  RawLiveInfo,
  RawMedia,
  RawMediaFeed,
  RawReel,
  RawReelsMedia,
  RawTopSearch,
  RawUser,
  RawUserList,
} from './upstream.raw.js';

export { DEFAULT_UPSTREAM_TIMEOUT_MS, type HttpSocialUpstreamOptions } from './upstream.client.js';

const ID_CACHE_LIMIT = 1000;
const ID_CACHE_TTL_MS = 10 * 60_000;
const REELS_PER_REQUEST = 10;
const SEARCH_MAX = 50;

/**
 * The social-data upstream over HTTP, on the platform's public web JSON: one or two requests per
 * call (a handle is first resolved to its account id through the profile, then remembered for a
 * while). Raw answers are mapped in `upstream.mapping.ts`, failures in `upstream.failure.ts`.
 */
export class HttpSocialUpstream implements SocialUpstream {
  private readonly client: UpstreamJsonClient;
  /** handle → id; short-lived, since a released handle can be taken by another account. */
  private readonly ids = new Map<string, { id: string; until: number }>();

  constructor(options: HttpSocialUpstreamOptions) {
    this.client = new UpstreamJsonClient(options);
  }

  /** Closes the keep-alive connections to the platform (a stopping service). */
  close(): Promise<void> {
    return this.client.close();
  }

  async profile(
    ref: AccountRef,
    detail: 'standard' | 'extended',
  ): Promise<AccountSummary | ExtendedProfile> {
    const user = await this.profileUser(ref);
    return detail === 'extended' ? mapExtendedProfile(user) : mapAccountSummary(user);
  }

  async posts(ref: AccountRef, page: PageRequest): Promise<UpstreamPage<Post>> {
    const id = await this.accountId(ref);
    const query = { count: page.pageSize, max_id: page.pageToken };
    const raw = await this.client.get<RawMediaFeed>(`/api/v1/feed/user/${id}/`, query);
    return mapPage(raw.items, (m) => mapPost(m), raw.next_max_id, raw.more_available);
  }

  async reels(ref: AccountRef, page: PageRequest): Promise<UpstreamPage<Post>> {
    const query = {
      target_user_id: await this.accountId(ref),
      page_size: page.pageSize,
      max_id: page.pageToken,
    };
    const raw = await this.client.get<RawClipsFeed>('/api/v1/clips/user/', query);
    const media = (raw.items ?? []).flatMap((i): RawMedia[] => (i?.media ? [i.media] : []));
    return mapPage(
      media,
      (m) => mapPost(m),
      raw.paging_info?.max_id,
      raw.paging_info?.more_available,
    );
  }

  async taggedPosts(ref: AccountRef, page: PageRequest): Promise<UpstreamPage<Post>> {
    const id = await this.accountId(ref);
    const query = { count: page.pageSize, max_id: page.pageToken };
    const raw = await this.client.get<RawMediaFeed>(`/api/v1/usertags/${id}/feed/`, query);
    return mapPage(raw.items, (m) => mapPost(m), raw.next_max_id, raw.more_available);
  }

  followers(
    ref: AccountRef,
    page: PageRequest,
    search?: string,
  ): Promise<UpstreamPage<AccountSummary>> {
    return this.friendships('followers', ref, page, search);
  }

  following(
    ref: AccountRef,
    page: PageRequest,
    search?: string,
  ): Promise<UpstreamPage<AccountSummary>> {
    return this.friendships('following', ref, page, search);
  }

  async guides(ref: AccountRef, page: { pageToken?: string | null }): Promise<UpstreamPage<Guide>> {
    const id = await this.accountId(ref);
    const raw = await this.client.get<RawGuideFeed>(`/api/v1/guides/user/${id}/`, {
      max_id: page.pageToken,
    });
    return mapPage(raw.guides, mapGuide, raw.next_max_id, raw.more_available);
  }

  /** Profiles first: a missing account fails the call (NOT_FOUND), a private one too (PRIVATE). */
  async stories(refs: AccountRef[]): Promise<StorySet[]> {
    const accounts = (await Promise.all(refs.map((ref) => this.profileUser(ref)))).map(
      mapAccountSummary,
    );
    const hidden = accounts.find((a) => a.isPrivate === true);
    if (hidden) {
      throw new UpstreamError('PRIVATE', `@${hidden.handle ?? hidden.accountId} is private`);
    }
    const ids = accounts.map((a) => a.accountId ?? this.noId());
    const reels = await this.reelsMedia(ids);
    return accounts.map((account, i) => mapStorySet(account, reels[ids[i] as string]));
  }

  async highlights(ref: AccountRef): Promise<Highlight[]> {
    const id = await this.accountId(ref);
    const { tray } = await this.client.get<RawHighlightsTray>(
      `/api/v1/highlights/${id}/highlights_tray/`,
    );
    const entries = tray ?? [];
    const reels = await this.reelsMedia(
      entries.flatMap((t) => (t.id == null ? [] : [String(t.id)])),
    );
    return entries.map((t) => mapHighlight(t, t.id == null ? null : reels[String(t.id)]));
  }

  async broadcast(ref: AccountRef): Promise<Broadcast> {
    const query = { target_user_id: await this.accountId(ref) };
    return mapBroadcast(await this.client.get<RawLiveInfo>('/api/v1/live/web_info/', query));
  }

  async related(ref: AccountRef): Promise<AccountSummary[]> {
    const query = { target_id: await this.accountId(ref) };
    const raw = await this.client.get<RawUserList>('/api/v1/discover/chaining/', query);
    return (raw.users ?? []).map(mapAccountSummary);
  }

  async about(ref: AccountRef): Promise<About> {
    const id = await this.accountId(ref);
    return mapAbout(await this.client.get<RawAbout>(`/api/v1/users/${id}/about_this_account/`));
  }

  async search(query: string, limit: number): Promise<AccountSummary[]> {
    const max = Math.max(0, Math.min(limit, SEARCH_MAX));
    const raw = await this.client.get<RawTopSearch>('/web/search/topsearch/', {
      query,
      context: 'blended',
    });
    const users = (raw.users ?? []).flatMap((entry) => (entry?.user ? [entry.user] : []));
    return users.slice(0, max).map(mapAccountSummary);
  }

  /** With `search`, the platform filters the whole list and answers one page (no token). */
  private async friendships(
    kind: 'followers' | 'following',
    ref: AccountRef,
    page: PageRequest,
    search?: string,
  ): Promise<UpstreamPage<AccountSummary>> {
    const id = await this.accountId(ref);
    const filter = search?.trim();
    const query = filter ? { query: filter } : { count: page.pageSize, max_id: page.pageToken };
    const raw = await this.client.get<RawUserList>(`/api/v1/friendships/${id}/${kind}/`, query);
    return mapPage(raw.users, mapAccountSummary, filter ? null : raw.next_max_id);
  }

  /** Reels by reel id, fetched a few at a time; a reel the platform left out is absent. */
  private async reelsMedia(reelIds: string[]): Promise<Record<string, RawReel | null>> {
    const out: Record<string, RawReel | null> = {};
    for (let i = 0; i < reelIds.length; i += REELS_PER_REQUEST) {
      const chunk = reelIds.slice(i, i + REELS_PER_REQUEST);
      const raw = await this.client.get<RawReelsMedia>('/api/v1/feed/reels_media/', {
        reel_ids: chunk,
      });
      Object.assign(out, raw.reels ?? {});
    }
    return out;
  }

  private async profileUser(ref: AccountRef): Promise<RawUser> {
    let user: RawUser | null | undefined;
    if ('handle' in ref) {
      const raw = await this.client.get<{ data?: { user?: RawUser | null } | null }>(
        '/api/v1/users/web_profile_info/',
        { username: ref.handle },
      );
      user = raw.data?.user;
    } else {
      const raw = await this.client.get<{ user?: RawUser | null }>(
        `/api/v1/users/${checkedId(ref.accountId)}/info/`,
      );
      user = raw.user;
    }
    if (!user) throw new UpstreamError('NOT_FOUND', 'account not found');
    const id = accountIdOf(user);
    if ('handle' in ref && id) this.remember(ref.handle.toLowerCase(), id);
    return user;
  }

  /** The account id for a ref; a handle is resolved through its profile (and remembered). */
  private async accountId(ref: AccountRef): Promise<string> {
    if ('accountId' in ref) return checkedId(ref.accountId);
    const known = this.ids.get(ref.handle.toLowerCase());
    if (known && known.until > Date.now()) return known.id;
    return accountIdOf(await this.profileUser(ref)) ?? this.noId();
  }

  private remember(handle: string, id: string): void {
    this.ids.delete(handle);
    this.ids.set(handle, { id, until: Date.now() + ID_CACHE_TTL_MS });
    if (this.ids.size > ID_CACHE_LIMIT) this.ids.delete(this.ids.keys().next().value as string);
  }

  private noId(): never {
    throw new UpstreamError('UNAVAILABLE', 'upstream profile carries no account id');
  }
}

/** Platform ids are decimal digits; anything else names no account (and never reaches a path). */
function checkedId(accountId: string): string {
  if (!/^\d{1,40}$/.test(accountId)) throw new UpstreamError('NOT_FOUND', 'account not found');
  return accountId;
}

import { lensOperations } from '@campaign/schema';
import type {
  AccountRef,
  PageRequest,
  Post,
  SocialUpstream,
  UpstreamPage,
} from '../upstream/upstream.port.js';
import type { CursorCodec } from './cursor.js';
import { accountsInPosts } from './observed.js';
import { pagedOperation } from './paging.js';

type MediaFetch = (
  upstream: SocialUpstream,
) => (ref: AccountRef, page: PageRequest) => Promise<UpstreamPage<Post>>;

function mediaOperation(
  cursors: CursorCodec,
  name: 'accounts.posts' | 'accounts.reels' | 'accounts.taggedPosts',
  fetch: MediaFetch,
) {
  return pagedOperation(cursors, lensOperations[name], {
    price: { base: 1, perItem: 1 },
    maxItems: (input) => input.pageSize,
    fetch: (upstream, input, pageToken) =>
      fetch(upstream)(input.accountRef, { pageSize: input.pageSize, pageToken }),
    accountsOf: accountsInPosts,
  });
}

/** accounts.posts, accounts.reels and accounts.taggedPosts: pages of Post (lens spec 2.3a). */
export function mediaOperations(cursors: CursorCodec) {
  return {
    'accounts.posts': mediaOperation(cursors, 'accounts.posts', (u) => u.posts.bind(u)),
    'accounts.reels': mediaOperation(cursors, 'accounts.reels', (u) => u.reels.bind(u)),
    'accounts.taggedPosts': mediaOperation(cursors, 'accounts.taggedPosts', (u) =>
      u.taggedPosts.bind(u),
    ),
  };
}

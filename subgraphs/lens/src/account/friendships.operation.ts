import { lensOperations } from '@campaign/schema';
import type { CursorCodec } from './cursor.js';
import { pagedOperation } from './paging.js';

/** A search answers one filtered page of at most this many accounts (and reserves for them). */
const SEARCH_MAX = 50;

function friendshipsOperation(
  cursors: CursorCodec,
  name: 'accounts.followers' | 'accounts.following',
  kind: 'followers' | 'following',
) {
  return pagedOperation(cursors, lensOperations[name], {
    price: { base: 1, perItem: 1 },
    maxItems: (input) => input.pageSize ?? SEARCH_MAX,
    async fetch(upstream, input, pageToken) {
      if (input.search !== null) {
        const found = await upstream[kind](
          input.accountRef,
          { pageSize: SEARCH_MAX },
          input.search,
        );
        return { items: found.items.slice(0, SEARCH_MAX), nextPageToken: null };
      }
      return upstream[kind](input.accountRef, { pageSize: input.pageSize, pageToken });
    },
    accountsOf: (items) => items,
  });
}

/**
 * accounts.followers and accounts.following: pages of Account summary. A verified account's
 * followers may be a fixed sample (lens spec section 4, rule 2): one page, nextCursor null.
 */
export function friendshipsOperations(cursors: CursorCodec) {
  return {
    'accounts.followers': friendshipsOperation(cursors, 'accounts.followers', 'followers'),
    'accounts.following': friendshipsOperation(cursors, 'accounts.following', 'following'),
  };
}

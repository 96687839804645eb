import { lensOperations } from '@campaign/schema';
import type { CursorCodec } from './cursor.js';
import { accountsInPosts } from './observed.js';
import { pagedOperation } from './paging.js';

/** The most guides one page is reserved for (the upstream decides the page size). */
export const GUIDES_MAX_ITEMS = 12;

/**
 * accounts.guides: pages of Guide. Legacy: where the upstream no longer offers guides the
 * operation fails with 503 FEATURE_UNAVAILABLE (refunded).
 */
export function guidesOperation(cursors: CursorCodec) {
  return pagedOperation(cursors, lensOperations['accounts.guides'], {
    price: { base: 1, perItem: 1 },
    maxItems: () => GUIDES_MAX_ITEMS,
    fetch: (upstream, input, pageToken) => upstream.guides(input.accountRef, { pageToken }),
    accountsOf: (guides) => guides.flatMap((g) => [g.owner, ...accountsInPosts(g.posts)]),
  });
}

import { lensOperations } from '@campaign/schema';
import { defineOperation } from '../operation/operation-definition.js';
import { accountsInPosts } from './observed.js';

/** At most this many highlights are returned (and reserved for). */
const HIGHLIGHTS_MAX_ITEMS = 100;
/** At most this many related accounts are returned (and reserved for). */
const RELATED_MAX_ITEMS = 50;

/** accounts.highlights: `{items: Highlight[]}` (lens spec 2.7), at most 100. */
export const highlightsOperation = defineOperation(lensOperations['accounts.highlights'], {
  price: { base: 1, perItem: 1 },
  maxItems: () => HIGHLIGHTS_MAX_ITEMS,
  async execute(input, { upstream }) {
    const items = (await upstream.highlights(input.accountRef)).slice(0, HIGHLIGHTS_MAX_ITEMS);
    return {
      data: { items },
      itemCount: items.length,
      observedAccounts: items.flatMap((h) => [h.owner, ...accountsInPosts(h.stories)]),
    };
  },
});

/** accounts.broadcast: the Broadcast (lens spec 2.9); `state: offline` when not live. */
export const broadcastOperation = defineOperation(lensOperations['accounts.broadcast'], {
  price: { base: 1, perItem: 0 },
  maxItems: () => 0,
  async execute(input, { upstream }) {
    const broadcast = await upstream.broadcast(input.accountRef);
    return { data: { ...broadcast }, itemCount: 0, observedAccounts: [broadcast.owner] };
  },
});

/** accounts.related: `{items: AccountSummary[]}`, at most 50. */
export const relatedOperation = defineOperation(lensOperations['accounts.related'], {
  price: { base: 1, perItem: 1 },
  maxItems: () => RELATED_MAX_ITEMS,
  async execute(input, { upstream }) {
    const items = (await upstream.related(input.accountRef)).slice(0, RELATED_MAX_ITEMS);
    return { data: { items }, itemCount: items.length, observedAccounts: items };
  },
});

/** accounts.about: About (lens spec 2.10). */
export const aboutOperation = defineOperation(lensOperations['accounts.about'], {
  price: { base: 1, perItem: 0 },
  maxItems: () => 0,
  async execute(input, { upstream }) {
    const about = await upstream.about(input.accountRef);
    return { data: { ...about }, itemCount: 0, observedAccounts: [] };
  },
});

import { LENS_LIMITS } from '@campaign/schema';
import { lensOperations } from '@campaign/schema';
import { defineOperation } from '../operation/operation-definition.js';

const { maxResults } = LENS_LIMITS.accountsSearch;

/** accounts.search: `{items: AccountSummary[]}`, at most `maxResults` (lens spec section 8). */
export const searchOperation = defineOperation(lensOperations['accounts.search'], {
  price: { base: 1, perItem: 1 },
  maxItems: () => maxResults,
  async execute(input, { upstream }) {
    const items = (await upstream.search(input.search, maxResults)).slice(0, maxResults);
    return { data: { items }, itemCount: items.length, observedAccounts: items };
  },
});

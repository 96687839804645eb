import { lensOperations } from '@campaign/schema';
import { defineOperation } from '../operation/operation-definition.js';
import { accountsInPosts } from './observed.js';

/**
 * accounts.stories: `{items: StorySet[]}`, one set per accountRef in the order given (an account
 * without current stories has an empty set); no cursor. A missing account fails the call (404),
 * a private one too (403). Priced per story set.
 */
export const storiesOperation = defineOperation(lensOperations['accounts.stories'], {
  price: { base: 1, perItem: 1 },
  maxItems: (input) => input.accountRefs.length,
  async execute(input, { upstream }) {
    const sets = await upstream.stories(input.accountRefs);
    return {
      data: { items: sets },
      itemCount: sets.length,
      observedAccounts: sets.flatMap((s) => [s.account, ...accountsInPosts(s.stories)]),
    };
  },
});

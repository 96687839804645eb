import { Field, InputType } from 'type-graphql';
import { z } from 'zod';
import type { OperationDefinition } from '../operation/operation-definition.js';
import type { AccountRef } from '../upstream/upstream.port.js';
import { accountRefSchema, AccountRefInput, parseOperationInput } from './account-ref.js';
import { accountsInPosts } from './observed.js';

export const STORIES_MAX_ACCOUNTS = 4;

@InputType({ description: 'accounts.stories: the current stories of 1 to 4 accounts.' })
export class AccountsStoriesInput {
  @Field(() => [AccountRefInput], { description: '1 to 4 accounts; one story set each.' })
  accountRefs!: AccountRefInput[];
}

export interface StoriesInput {
  accountRefs: AccountRef[];
}

const storiesInput = z.strictObject({
  accountRefs: z
    .array(accountRefSchema)
    .min(1, { error: 'must name 1 to 4 accounts' })
    .max(STORIES_MAX_ACCOUNTS, { error: 'must name 1 to 4 accounts' }),
});

/**
 * accounts.stories: `{items: StorySet[]}`, one set per accountRef in the order given (an account
 * without current stories has an empty set); no cursor. A missing account fails the call (404),
 * a private one too (403). Priced per story set.
 */
export const storiesOperation: OperationDefinition<StoriesInput> = {
  name: 'accounts.stories',
  price: { base: 1, perItem: 1 },
  parseInput: (raw) => parseOperationInput(storiesInput, raw),
  maxItems: (input) => input.accountRefs.length,
  async execute(input, { upstream }) {
    const sets = await upstream.stories(input.accountRefs);
    return {
      data: { items: sets },
      itemCount: sets.length,
      observedAccounts: sets.flatMap((s) => [s.account, ...accountsInPosts(s.stories)]),
    };
  },
};

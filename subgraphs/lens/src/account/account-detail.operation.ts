import { Field, InputType } from 'type-graphql';
import { z } from 'zod';
import type { OperationDefinition } from '../operation/operation-definition.js';
import type { AccountRef } from '../upstream/upstream.port.js';
import { accountRefSchema, AccountRefInput, parseOperationInput } from './account-ref.js';
import { accountsInPosts } from './observed.js';

/** At most this many highlights are returned (and reserved for). */
export const HIGHLIGHTS_MAX_ITEMS = 100;
/** At most this many related accounts are returned (and reserved for). */
export const RELATED_MAX_ITEMS = 50;

@InputType({ description: 'accounts.highlights: an account’s story highlights.' })
export class AccountsHighlightsInput {
  @Field(() => AccountRefInput) accountRef!: AccountRefInput;
}

@InputType({ description: 'accounts.broadcast: an account’s current live broadcast.' })
export class AccountsBroadcastInput {
  @Field(() => AccountRefInput) accountRef!: AccountRefInput;
}

@InputType({ description: 'accounts.related: accounts the platform suggests alongside this one.' })
export class AccountsRelatedInput {
  @Field(() => AccountRefInput) accountRef!: AccountRefInput;
}

@InputType({ description: 'accounts.about: background information about an account.' })
export class AccountsAboutInput {
  @Field(() => AccountRefInput) accountRef!: AccountRefInput;
}

export interface AccountRefOnlyInput {
  accountRef: AccountRef;
}

const refInput = z.strictObject({ accountRef: accountRefSchema });
const parseRef = (raw: unknown): AccountRefOnlyInput => parseOperationInput(refInput, raw);

/** accounts.highlights: `{items: Highlight[]}` (lens spec 2.7), at most 100. */
export const highlightsOperation: OperationDefinition<AccountRefOnlyInput> = {
  name: 'accounts.highlights',
  price: { base: 1, perItem: 1 },
  parseInput: parseRef,
  maxItems: () => HIGHLIGHTS_MAX_ITEMS,
  async execute(input, { upstream }) {
    const items = (await upstream.highlights(input.accountRef)).slice(0, HIGHLIGHTS_MAX_ITEMS);
    return {
      data: { items },
      itemCount: items.length,
      observedAccounts: items.flatMap((h) => [h.owner, ...accountsInPosts(h.stories)]),
    };
  },
};

/** accounts.broadcast: the Broadcast (lens spec 2.9); `state: offline` when not live. */
export const broadcastOperation: OperationDefinition<AccountRefOnlyInput> = {
  name: 'accounts.broadcast',
  price: { base: 1, perItem: 0 },
  parseInput: parseRef,
  maxItems: () => 0,
  async execute(input, { upstream }) {
    const broadcast = await upstream.broadcast(input.accountRef);
    return { data: { ...broadcast }, itemCount: 0, observedAccounts: [broadcast.owner] };
  },
};

/** accounts.related: `{items: AccountSummary[]}`, at most 50. */
export const relatedOperation: OperationDefinition<AccountRefOnlyInput> = {
  name: 'accounts.related',
  price: { base: 1, perItem: 1 },
  parseInput: parseRef,
  maxItems: () => RELATED_MAX_ITEMS,
  async execute(input, { upstream }) {
    const items = (await upstream.related(input.accountRef)).slice(0, RELATED_MAX_ITEMS);
    return { data: { items }, itemCount: items.length, observedAccounts: items };
  },
};

/** accounts.about: About (lens spec 2.10). */
export const aboutOperation: OperationDefinition<AccountRefOnlyInput> = {
  name: 'accounts.about',
  price: { base: 1, perItem: 0 },
  parseInput: parseRef,
  maxItems: () => 0,
  async execute(input, { upstream }) {
    const about = await upstream.about(input.accountRef);
    return { data: { ...about }, itemCount: 0, observedAccounts: [] };
  },
};

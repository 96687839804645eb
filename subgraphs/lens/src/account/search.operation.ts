import { Field, InputType } from 'type-graphql';
import { z } from 'zod';
import type { OperationDefinition } from '../operation/operation-definition.js';
import { parseOperationInput } from './account-ref.js';
import { searchText } from './input-rules.js';

/** Lens spec section 8: at most 50 results. */
export const SEARCH_MAX_RESULTS = 50;

@InputType({ description: 'accounts.search: accounts matching a text.' })
export class AccountsSearchInput {
  @Field(() => String, { description: '1-200 characters.' }) search!: string;
}

export interface SearchInput {
  search: string;
}

const searchInput = z.strictObject({ search: searchText(200) });

/** accounts.search: `{items: AccountSummary[]}`, at most 50. */
export const searchOperation: OperationDefinition<SearchInput> = {
  name: 'accounts.search',
  price: { base: 1, perItem: 1 },
  parseInput: (raw) => parseOperationInput(searchInput, raw),
  maxItems: () => SEARCH_MAX_RESULTS,
  async execute(input, { upstream }) {
    const items = (await upstream.search(input.search, SEARCH_MAX_RESULTS)).slice(
      0,
      SEARCH_MAX_RESULTS,
    );
    return { data: { items }, itemCount: items.length, observedAccounts: items };
  },
};

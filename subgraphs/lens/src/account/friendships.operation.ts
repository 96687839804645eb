import { Field, InputType, Int } from 'type-graphql';
import { z } from 'zod';
import type { OperationDefinition } from '../operation/operation-definition.js';
import type { AccountSummary } from '../upstream/upstream.port.js';
import { accountRefSchema, AccountRefInput } from './account-ref.js';
import type { CursorCodec } from './cursor.js';
import { cursorText, pageSize, searchText } from './input-rules.js';
import { pagedOperation, type PagedInput } from './paging.js';

const FOLLOWERS_MAX = 50;
/** A search answers one filtered page of at most this many accounts. */
const SEARCH_MAX = 50;

/** The GraphQL input of accounts.followers and accounts.following: the same fields, two names. */
function friendshipsInputType(name: string, description: string) {
  @InputType(name, { description })
  class FriendshipsArgs {
    @Field(() => AccountRefInput) accountRef!: AccountRefInput;
    @Field(() => String, { nullable: true, description: 'A nextCursor; not with search.' })
    cursor?: string | null;
    @Field(() => Int, { nullable: true, description: '1-50, default 50; not with search.' })
    pageSize?: number | null;
    @Field(() => String, {
      nullable: true,
      description: '1-100 characters; filters the list and disables paging.',
    })
    search?: string | null;
  }
  return FriendshipsArgs;
}

export const AccountsFollowersInput = friendshipsInputType(
  'AccountsFollowersInput',
  'accounts.followers: accounts that follow this account.',
);
export type AccountsFollowersInput = InstanceType<typeof AccountsFollowersInput>;

export const AccountsFollowingInput = friendshipsInputType(
  'AccountsFollowingInput',
  'accounts.following: accounts this account follows.',
);
export type AccountsFollowingInput = InstanceType<typeof AccountsFollowingInput>;

export interface FriendshipsInput extends PagedInput {
  /** null when `search` is given (paging is disabled). */
  pageSize: number | null;
  search: string | null;
}

const friendshipsInput: z.ZodType<FriendshipsInput> = z
  .strictObject({
    accountRef: accountRefSchema,
    cursor: cursorText.nullish(),
    pageSize: pageSize(FOLLOWERS_MAX).nullish(),
    search: searchText(100).nullish(),
  })
  .superRefine((i, ctx) => {
    if (i.search === null || i.search === undefined) return;
    for (const field of ['cursor', 'pageSize'] as const) {
      if (i[field] !== null && i[field] !== undefined) {
        ctx.addIssue({
          code: 'custom',
          path: [field],
          message: 'not allowed with search (a search disables paging)',
        });
      }
    }
  })
  .transform((i) => {
    const search = i.search ?? null;
    return {
      accountRef: i.accountRef,
      cursor: i.cursor ?? null,
      pageSize: search === null ? (i.pageSize ?? FOLLOWERS_MAX) : null,
      search,
    };
  });

function friendshipsOperation(
  cursors: CursorCodec,
  name: string,
  kind: 'followers' | 'following',
): OperationDefinition<FriendshipsInput> {
  return pagedOperation<FriendshipsInput, AccountSummary>(cursors, {
    name,
    price: { base: 1, perItem: 1 },
    schema: friendshipsInput,
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
      return upstream[kind](input.accountRef, {
        pageSize: input.pageSize ?? FOLLOWERS_MAX,
        pageToken,
      });
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
    followers: friendshipsOperation(cursors, 'accounts.followers', 'followers'),
    following: friendshipsOperation(cursors, 'accounts.following', 'following'),
  };
}

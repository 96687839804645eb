import { z } from 'zod';
import {
  accountRef,
  cursor,
  graphqlMeta,
  LENS_LIMITS,
  pageSize,
  searchDisablesPaging,
  searchText,
  type PageSizeLimit,
} from './lens-input.js';

/**
 * The thirteen operations of lens spec section 4, each declared once: name, texts, request body
 * (a zod schema that also applies the defaults) and result schema. Everything else is derived:
 * the REST path and the GraphQL field from the name, the OpenAPI request schema from the zod
 * schema, the REST adapter's rows and the lens subgraph's mutations and input types from this
 * list. The lens subgraph adds what only it knows to each: price, item bound and execution
 * (subgraphs/lens/src/account/*.operation.ts).
 */
export interface LensOperationContract<S extends z.ZodType = z.ZodType> {
  /** The operationName of lens spec section 4. */
  name: string;
  /** REST path under /api/lens/v1 (`/accounts/taggedPosts`). */
  path: string;
  /** The GraphQL mutation and the OpenAPI operationId (`accountsTaggedPosts`). */
  field: string;
  /** OpenAPI description of the operation. */
  summary: string;
  /** GraphQL description of the mutation. */
  description: string;
  /** The REST body or GraphQL `input` (where null counts as absent), parsed with defaults. */
  input: S;
  /** The OpenAPI component of the result (`data` of a SUCCEEDED envelope). */
  result: string;
}

/** `accounts.taggedPosts` → `accountsTaggedPosts`. */
const fieldOf = (name: string) => name.replace(/\.(.)/, (_, c: string) => c.toUpperCase());

/** Type names derived from an operation's field: `AccountsPostsInput`, `AccountsPostsRequest`. */
export const typeName = (contract: Pick<LensOperationContract, 'field'>, suffix: string) =>
  `${contract.field.charAt(0).toUpperCase()}${contract.field.slice(1)}${suffix}`;

const ENVELOPE = 'the envelope; `data` is the documented result shape';

function contract<S extends z.ZodType>(
  name: string,
  texts: { summary: string; result: string; data: string; legacy?: boolean },
  input: S,
): LensOperationContract<S> {
  return {
    name,
    path: `/${name.replace('.', '/')}`,
    field: fieldOf(name),
    summary: texts.summary,
    description: `${name}${texts.legacy ? ' (legacy)' : ''}: ${texts.data}; ${ENVELOPE}.`,
    input,
    result: texts.result,
  };
}

/** Only the account: highlights, broadcast, related, about. */
const accountOnly = (graphql: string) =>
  z.strictObject({ accountRef }).register(graphqlMeta, { description: graphql });

const CURSOR_TEXT = `A nextCursor returned earlier (at most ${LENS_LIMITS.cursor.max} characters); none: first page.`;

function mediaInput(limit: PageSizeLimit, graphql: string) {
  return z
    .strictObject({
      accountRef,
      cursor: cursor(CURSOR_TEXT),
      pageSize: pageSize(
        limit,
        `1-${limit.max}, default ${limit.default} (upper bound of the page)`,
      ),
    })
    .register(graphqlMeta, { description: graphql })
    .transform((i) => ({
      accountRef: i.accountRef,
      cursor: i.cursor ?? null,
      pageSize: i.pageSize ?? limit.default,
    }));
}

/** followers and following, parsed: one page, or (with search) one filtered page without paging. */
export type FriendshipsInput = {
  accountRef: z.output<typeof accountRef>;
  cursor: string | null;
} & ({ pageSize: number; search: null } | { pageSize: null; search: string });

function friendshipsInput(limit: PageSizeLimit, graphql: string) {
  const search = LENS_LIMITS.friendshipsSearch;
  return searchDisablesPaging(
    z.strictObject({
      accountRef,
      cursor: cursor('A nextCursor; not with search.'),
      pageSize: pageSize(limit, `1-${limit.max}, default ${limit.default}; not with search.`),
      search: searchText(search, {
        rest: 'Filters the list; disables paging.',
        graphql: `${search.min}-${search.max} characters; filters the list and disables paging.`,
      }).optional(),
    }),
  )
    .register(graphqlMeta, { description: graphql })
    .transform((i): FriendshipsInput => {
      const first = { accountRef: i.accountRef, cursor: i.cursor ?? null };
      return i.search === undefined
        ? { ...first, pageSize: i.pageSize ?? limit.default, search: null }
        : { ...first, pageSize: null, search: i.search };
    });
}

const stories = LENS_LIMITS.storiesAccountRefs;
const storiesError = `must name ${stories.min} to ${stories.max} accounts`;
const { pageSize: PAGE } = LENS_LIMITS;

export const lensOperations = {
  'accounts.profile': contract(
    'accounts.profile',
    {
      summary: 'The account summary; with detail extended, more profile fields (no recent posts).',
      result: 'AccountProfileData',
      data: 'the Account summary (2.3), extended with detail: extended',
    },
    z.strictObject({
      accountRef,
      detail: z
        .enum(['standard', 'extended'])
        .register(graphqlMeta, { name: 'ProfileDetail' })
        .default('standard')
        .register(graphqlMeta, { showDefault: true }),
    }),
  ),
  'accounts.posts': contract(
    'accounts.posts',
    {
      summary: 'A page of the account’s posts.',
      result: 'PostPage',
      data: '{items: Post[], nextCursor, completeness}',
    },
    mediaInput(PAGE.posts, 'accounts.posts: an account timeline, newest first.'),
  ),
  'accounts.reels': contract(
    'accounts.reels',
    {
      summary: 'A page of the account’s reels.',
      result: 'PostPage',
      data: '{items: Post[], nextCursor, completeness}',
    },
    mediaInput(PAGE.reels, 'accounts.reels: an account’s reels, newest first.'),
  ),
  'accounts.taggedPosts': contract(
    'accounts.taggedPosts',
    {
      summary: 'A page of posts the account is tagged in.',
      result: 'PostPage',
      data: '{items: Post[], nextCursor, completeness}',
    },
    mediaInput(
      PAGE.taggedPosts,
      'accounts.taggedPosts: posts other accounts tagged this account in.',
    ),
  ),
  'accounts.followers': contract(
    'accounts.followers',
    {
      summary:
        'A page of the account’s followers (a verified account’s may be a fixed sample); search disables paging.',
      result: 'AccountPage',
      data: '{items: AccountSummary[], nextCursor, completeness}',
    },
    friendshipsInput(PAGE.followers, 'accounts.followers: accounts that follow this account.'),
  ),
  'accounts.following': contract(
    'accounts.following',
    {
      summary: 'A page of the accounts this account follows; search disables paging.',
      result: 'AccountPage',
      data: '{items: AccountSummary[], nextCursor, completeness}',
    },
    friendshipsInput(PAGE.following, 'accounts.following: accounts this account follows.'),
  ),
  'accounts.guides': contract(
    'accounts.guides',
    {
      summary:
        'A page of the account’s guides. Legacy: availability is not guaranteed (503 FEATURE_UNAVAILABLE).',
      result: 'GuidePage',
      data: '{items: Guide[], nextCursor, completeness}',
      legacy: true,
    },
    z
      .strictObject({ accountRef, cursor: cursor('A nextCursor returned earlier.') })
      .register(graphqlMeta, { description: 'accounts.guides (legacy): an account’s guides.' })
      .transform((i) => ({ accountRef: i.accountRef, cursor: i.cursor ?? null })),
  ),
  'accounts.stories': contract(
    'accounts.stories',
    {
      summary: `The current stories of ${stories.min} to ${stories.max} accounts, one story set each; no cursor.`,
      result: 'StorySetList',
      data: '{items: StorySet[]}, one per accountRef',
    },
    z
      .strictObject({
        accountRefs: z
          .array(accountRef)
          .min(stories.min, { error: storiesError })
          .max(stories.max, { error: storiesError })
          .register(graphqlMeta, {
            description: `${stories.min} to ${stories.max} accounts; one story set each.`,
          }),
      })
      .register(graphqlMeta, {
        description: `accounts.stories: the current stories of ${stories.min} to ${stories.max} accounts.`,
      }),
  ),
  'accounts.highlights': contract(
    'accounts.highlights',
    {
      summary: 'The account’s story highlights.',
      result: 'HighlightList',
      data: '{items: Highlight[]}',
    },
    accountOnly('accounts.highlights: an account’s story highlights.'),
  ),
  'accounts.broadcast': contract(
    'accounts.broadcast',
    {
      summary: 'The account’s current live broadcast (state offline when none).',
      result: 'Broadcast',
      data: 'the Broadcast (2.9)',
    },
    accountOnly('accounts.broadcast: an account’s current live broadcast.'),
  ),
  'accounts.related': contract(
    'accounts.related',
    {
      summary: 'Accounts related to this one.',
      result: 'AccountList',
      data: '{items: AccountSummary[]}',
    },
    accountOnly('accounts.related: accounts the platform suggests alongside this one.'),
  ),
  'accounts.about': contract(
    'accounts.about',
    {
      summary: 'Background information about the account.',
      result: 'About',
      data: 'About (2.10)',
    },
    accountOnly('accounts.about: background information about an account.'),
  ),
  'accounts.search': contract(
    'accounts.search',
    {
      summary: `Accounts matching a text, at most ${LENS_LIMITS.accountsSearch.maxResults}.`,
      result: 'AccountSearchResult',
      data: `{items: AccountSummary[]}, at most ${LENS_LIMITS.accountsSearch.maxResults}`,
    },
    z
      .strictObject({
        search: searchText(LENS_LIMITS.accountsSearch, {
          graphql: `${LENS_LIMITS.accountsSearch.min}-${LENS_LIMITS.accountsSearch.max} characters.`,
        }),
      })
      .register(graphqlMeta, { description: 'accounts.search: accounts matching a text.' }),
  ),
};

export type LensOperationName = keyof typeof lensOperations;

/** The parsed input of an operation (defaults applied), as stored and hashed for idempotency. */
export type LensOperationInput<N extends LensOperationName> = z.output<
  (typeof lensOperations)[N]['input']
>;

/** In the order of lens spec section 4 (the order of the document and of the GraphQL mutations). */
export const lensOperationList: readonly LensOperationContract[] = Object.values(lensOperations);

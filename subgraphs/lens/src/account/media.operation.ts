import { Field, InputType, Int } from 'type-graphql';
import { z } from 'zod';
import type { OperationDefinition } from '../operation/operation-definition.js';
import type { PageRequest, Post, SocialUpstream, UpstreamPage } from '../upstream/upstream.port.js';
import { accountRefSchema, AccountRefInput } from './account-ref.js';
import type { CursorCodec } from './cursor.js';
import { cursorText, pageSize } from './input-rules.js';
import { accountsInPosts } from './observed.js';
import { pagedOperation, type PagedInput } from './paging.js';

const CURSOR_DESCRIPTION =
  'A nextCursor returned earlier (at most 16384 characters); none: first page.';

@InputType({ description: 'accounts.posts: an account timeline, newest first.' })
export class AccountsPostsInput {
  @Field(() => AccountRefInput) accountRef!: AccountRefInput;
  @Field(() => String, { nullable: true, description: CURSOR_DESCRIPTION }) cursor?: string | null;
  @Field(() => Int, { nullable: true, description: '1-12, default 12 (upper bound of the page)' })
  pageSize?: number | null;
}

@InputType({ description: 'accounts.reels: an account’s reels, newest first.' })
export class AccountsReelsInput {
  @Field(() => AccountRefInput) accountRef!: AccountRefInput;
  @Field(() => String, { nullable: true, description: CURSOR_DESCRIPTION }) cursor?: string | null;
  @Field(() => Int, { nullable: true, description: '1-12, default 12 (upper bound of the page)' })
  pageSize?: number | null;
}

@InputType({ description: 'accounts.taggedPosts: posts other accounts tagged this account in.' })
export class AccountsTaggedPostsInput {
  @Field(() => AccountRefInput) accountRef!: AccountRefInput;
  @Field(() => String, { nullable: true, description: CURSOR_DESCRIPTION }) cursor?: string | null;
  @Field(() => Int, { nullable: true, description: '1-50, default 12 (upper bound of the page)' })
  pageSize?: number | null;
}

export interface MediaPageInput extends PagedInput {
  pageSize: number;
}

function mediaInput(max: number, fallback: number): z.ZodType<MediaPageInput> {
  return z
    .strictObject({
      accountRef: accountRefSchema,
      cursor: cursorText.nullish(),
      pageSize: pageSize(max).nullish(),
    })
    .transform((i) => ({
      accountRef: i.accountRef,
      cursor: i.cursor ?? null,
      pageSize: i.pageSize ?? fallback,
    }));
}

type MediaFetch = (
  upstream: SocialUpstream,
) => (ref: MediaPageInput['accountRef'], page: PageRequest) => Promise<UpstreamPage<Post>>;

function mediaOperation(
  cursors: CursorCodec,
  name: string,
  limits: { max: number; fallback: number },
  fetch: MediaFetch,
): OperationDefinition<MediaPageInput> {
  return pagedOperation<MediaPageInput, Post>(cursors, {
    name,
    price: { base: 1, perItem: 1 },
    schema: mediaInput(limits.max, limits.fallback),
    maxItems: (input) => input.pageSize,
    fetch: (upstream, input, pageToken) =>
      fetch(upstream)(input.accountRef, { pageSize: input.pageSize, pageToken }),
    accountsOf: accountsInPosts,
  });
}

/** accounts.posts, accounts.reels and accounts.taggedPosts: pages of Post (lens spec 2.3a). */
export function mediaOperations(cursors: CursorCodec) {
  return {
    posts: mediaOperation(cursors, 'accounts.posts', { max: 12, fallback: 12 }, (u) =>
      u.posts.bind(u),
    ),
    reels: mediaOperation(cursors, 'accounts.reels', { max: 12, fallback: 12 }, (u) =>
      u.reels.bind(u),
    ),
    taggedPosts: mediaOperation(cursors, 'accounts.taggedPosts', { max: 50, fallback: 12 }, (u) =>
      u.taggedPosts.bind(u),
    ),
  };
}

import { Field, InputType } from 'type-graphql';
import { z } from 'zod';
import type { OperationDefinition } from '../operation/operation-definition.js';
import type { Guide } from '../upstream/upstream.port.js';
import { accountRefSchema, AccountRefInput } from './account-ref.js';
import type { CursorCodec } from './cursor.js';
import { cursorText } from './input-rules.js';
import { accountsInPosts } from './observed.js';
import { pagedOperation, type PagedInput } from './paging.js';

/** The most guides one page is reserved for (the upstream decides the page size). */
export const GUIDES_MAX_ITEMS = 12;

@InputType({ description: 'accounts.guides (legacy): an account’s guides.' })
export class AccountsGuidesInput {
  @Field(() => AccountRefInput) accountRef!: AccountRefInput;
  @Field(() => String, { nullable: true, description: 'A nextCursor returned earlier.' })
  cursor?: string | null;
}

const guidesInput: z.ZodType<PagedInput> = z
  .strictObject({ accountRef: accountRefSchema, cursor: cursorText.nullish() })
  .transform((i) => ({ accountRef: i.accountRef, cursor: i.cursor ?? null }));

/**
 * accounts.guides: pages of Guide. Legacy: where the upstream no longer offers guides the
 * operation fails with 503 FEATURE_UNAVAILABLE (refunded).
 */
export function guidesOperation(cursors: CursorCodec): OperationDefinition<PagedInput> {
  return pagedOperation<PagedInput, Guide>(cursors, {
    name: 'accounts.guides',
    price: { base: 1, perItem: 1 },
    schema: guidesInput,
    maxItems: () => GUIDES_MAX_ITEMS,
    fetch: (upstream, input, pageToken) => upstream.guides(input.accountRef, { pageToken }),
    accountsOf: (guides) => guides.flatMap((g) => [g.owner, ...accountsInPosts(g.posts)]),
  });
}

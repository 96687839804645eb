import type { z } from 'zod';
import type { LensOperationContract } from '@campaign/schema';
import {
  defineOperation,
  type OperationDefinition,
  type Price,
} from '../operation/operation-definition.js';
import type {
  AccountRef,
  AccountSummary,
  SocialUpstream,
  UpstreamPage,
} from '../upstream/upstream.port.js';
import type { CursorCodec } from './cursor.js';

/** Every paged result carries this single completeness value (lens spec section 1). */
export const COMPLETENESS = 'observedSample';

export interface PagedInput {
  accountRef: AccountRef;
  /** A nextCursor returned earlier, or null for the first page. */
  cursor: string | null;
}

export interface PagedOperationSpec<I extends PagedInput, T> {
  price: Price;
  maxItems(input: I): number;
  fetch(upstream: SocialUpstream, input: I, pageToken: string | null): Promise<UpstreamPage<T>>;
  accountsOf(items: T[]): AccountSummary[];
}

/**
 * A paged lens operation: `{items, nextCursor, completeness}`. The upstream's page token travels
 * inside a signed cursor bound to tenant, operation and account (DESIGN.md L9); a bad cursor is
 * refused while the input is read, before credits are reserved.
 */
export function pagedOperation<S extends z.ZodType<PagedInput>, T>(
  cursors: CursorCodec,
  contract: LensOperationContract<S>,
  spec: PagedOperationSpec<z.output<S>, T>,
): OperationDefinition<z.output<S>> {
  type I = z.output<S>;
  const binding = (input: I) => ({ operation: contract.name, account: input.accountRef });
  const definition = defineOperation(contract, {
    price: spec.price,
    maxItems: spec.maxItems,
    async execute(input, { upstream, tenantId }) {
      const pageToken =
        input.cursor === null ? null : cursors.open(input.cursor, binding(input)).pageToken;
      const page = await spec.fetch(upstream, input, pageToken);
      const nextCursor =
        page.nextPageToken === null
          ? null
          : cursors.issue({ ...binding(input), tenantId }, page.nextPageToken);
      return {
        data: { items: page.items, nextCursor, completeness: COMPLETENESS },
        itemCount: page.items.length,
        observedAccounts: spec.accountsOf(page.items),
      };
    },
  });
  return {
    ...definition,
    parseInput(raw) {
      const input = definition.parseInput(raw);
      if (input.cursor !== null) cursors.open(input.cursor, binding(input));
      return input;
    },
    validate(input, { tenantId }) {
      if (input.cursor !== null) {
        cursors.checkTenant(cursors.open(input.cursor, binding(input)), tenantId);
      }
    },
  };
}

import { Arg, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import type { LensContext } from '../context.js';
import { LensOperation } from '../operation/operation.type.js';
import type { OperationDefinition } from '../operation/operation-definition.js';
import {
  AccountsAboutInput,
  AccountsBroadcastInput,
  AccountsHighlightsInput,
  AccountsRelatedInput,
} from './account-detail.operation.js';
import { Account } from './account.type.js';
import { AccountsFollowersInput, AccountsFollowingInput } from './friendships.operation.js';
import { AccountsGuidesInput } from './guides.operation.js';
import type { LensOperations } from './lens-operations.js';
import {
  AccountsPostsInput,
  AccountsReelsInput,
  AccountsTaggedPostsInput,
} from './media.operation.js';
import { AccountsProfileInput } from './profile.operation.js';
import { AccountsSearchInput } from './search.operation.js';
import { AccountsStoriesInput } from './stories.operation.js';

/**
 * Runs one lens operation on the engine. The engine reads the input first, then authenticates
 * and runs the definition's `validate` (a paging cursor bound to another tenant is a 400 there,
 * before anything is reserved: DESIGN.md L2, L9).
 */
async function run<I>(
  context: LensContext,
  pick: (operations: LensOperations) => OperationDefinition<I>,
  key: string,
  input: unknown,
): Promise<LensOperation> {
  const outcome = await context.services.operations.run(
    context.em,
    context.caller,
    pick(context.services.definitions),
    key,
    input,
  );
  return LensOperation.from(outcome.operation, outcome.replayed);
}

const DATA = 'the envelope; `data` is the documented result shape';

/** The lens data operations (lens spec section 4); each is one billed operation of the engine. */
@Resolver()
export class AccountsResolver {
  @Mutation(() => LensOperation, {
    description: `accounts.profile: the Account summary (2.3), extended with detail: extended; ${DATA}.`,
  })
  accountsProfile(
    @Arg('idempotencyKey') idempotencyKey: string,
    @Arg('input', () => AccountsProfileInput) input: AccountsProfileInput,
    @Ctx() context: LensContext,
  ): Promise<LensOperation> {
    return run(context, (o) => o.profile, idempotencyKey, input);
  }

  @Mutation(() => LensOperation, {
    description: `accounts.posts: {items: Post[], nextCursor, completeness}; ${DATA}.`,
  })
  accountsPosts(
    @Arg('idempotencyKey') idempotencyKey: string,
    @Arg('input', () => AccountsPostsInput) input: AccountsPostsInput,
    @Ctx() context: LensContext,
  ): Promise<LensOperation> {
    return run(context, (o) => o.posts, idempotencyKey, input);
  }

  @Mutation(() => LensOperation, {
    description: `accounts.reels: {items: Post[], nextCursor, completeness}; ${DATA}.`,
  })
  accountsReels(
    @Arg('idempotencyKey') idempotencyKey: string,
    @Arg('input', () => AccountsReelsInput) input: AccountsReelsInput,
    @Ctx() context: LensContext,
  ): Promise<LensOperation> {
    return run(context, (o) => o.reels, idempotencyKey, input);
  }

  @Mutation(() => LensOperation, {
    description: `accounts.taggedPosts: {items: Post[], nextCursor, completeness}; ${DATA}.`,
  })
  accountsTaggedPosts(
    @Arg('idempotencyKey') idempotencyKey: string,
    @Arg('input', () => AccountsTaggedPostsInput) input: AccountsTaggedPostsInput,
    @Ctx() context: LensContext,
  ): Promise<LensOperation> {
    return run(context, (o) => o.taggedPosts, idempotencyKey, input);
  }

  @Mutation(() => LensOperation, {
    description: `accounts.followers: {items: AccountSummary[], nextCursor, completeness}; ${DATA}.`,
  })
  accountsFollowers(
    @Arg('idempotencyKey') idempotencyKey: string,
    @Arg('input', () => AccountsFollowersInput) input: AccountsFollowersInput,
    @Ctx() context: LensContext,
  ): Promise<LensOperation> {
    return run(context, (o) => o.followers, idempotencyKey, input);
  }

  @Mutation(() => LensOperation, {
    description: `accounts.following: {items: AccountSummary[], nextCursor, completeness}; ${DATA}.`,
  })
  accountsFollowing(
    @Arg('idempotencyKey') idempotencyKey: string,
    @Arg('input', () => AccountsFollowingInput) input: AccountsFollowingInput,
    @Ctx() context: LensContext,
  ): Promise<LensOperation> {
    return run(context, (o) => o.following, idempotencyKey, input);
  }

  @Mutation(() => LensOperation, {
    description: `accounts.guides (legacy): {items: Guide[], nextCursor, completeness}; ${DATA}.`,
  })
  accountsGuides(
    @Arg('idempotencyKey') idempotencyKey: string,
    @Arg('input', () => AccountsGuidesInput) input: AccountsGuidesInput,
    @Ctx() context: LensContext,
  ): Promise<LensOperation> {
    return run(context, (o) => o.guides, idempotencyKey, input);
  }

  @Mutation(() => LensOperation, {
    description: `accounts.stories: {items: StorySet[]}, one per accountRef; ${DATA}.`,
  })
  accountsStories(
    @Arg('idempotencyKey') idempotencyKey: string,
    @Arg('input', () => AccountsStoriesInput) input: AccountsStoriesInput,
    @Ctx() context: LensContext,
  ): Promise<LensOperation> {
    return run(context, (o) => o.stories, idempotencyKey, input);
  }

  @Mutation(() => LensOperation, {
    description: `accounts.highlights: {items: Highlight[]}; ${DATA}.`,
  })
  accountsHighlights(
    @Arg('idempotencyKey') idempotencyKey: string,
    @Arg('input', () => AccountsHighlightsInput) input: AccountsHighlightsInput,
    @Ctx() context: LensContext,
  ): Promise<LensOperation> {
    return run(context, (o) => o.highlights, idempotencyKey, input);
  }

  @Mutation(() => LensOperation, {
    description: `accounts.broadcast: the Broadcast (2.9); ${DATA}.`,
  })
  accountsBroadcast(
    @Arg('idempotencyKey') idempotencyKey: string,
    @Arg('input', () => AccountsBroadcastInput) input: AccountsBroadcastInput,
    @Ctx() context: LensContext,
  ): Promise<LensOperation> {
    return run(context, (o) => o.broadcast, idempotencyKey, input);
  }

  @Mutation(() => LensOperation, {
    description: `accounts.related: {items: AccountSummary[]}; ${DATA}.`,
  })
  accountsRelated(
    @Arg('idempotencyKey') idempotencyKey: string,
    @Arg('input', () => AccountsRelatedInput) input: AccountsRelatedInput,
    @Ctx() context: LensContext,
  ): Promise<LensOperation> {
    return run(context, (o) => o.related, idempotencyKey, input);
  }

  @Mutation(() => LensOperation, { description: `accounts.about: About (2.10); ${DATA}.` })
  accountsAbout(
    @Arg('idempotencyKey') idempotencyKey: string,
    @Arg('input', () => AccountsAboutInput) input: AccountsAboutInput,
    @Ctx() context: LensContext,
  ): Promise<LensOperation> {
    return run(context, (o) => o.about, idempotencyKey, input);
  }

  @Mutation(() => LensOperation, {
    description: `accounts.search: {items: AccountSummary[]}, at most 50; ${DATA}.`,
  })
  accountsSearch(
    @Arg('idempotencyKey') idempotencyKey: string,
    @Arg('input', () => AccountsSearchInput) input: AccountsSearchInput,
    @Ctx() context: LensContext,
  ): Promise<LensOperation> {
    return run(context, (o) => o.search, idempotencyKey, input);
  }

  @Query(() => Account, {
    description:
      'An account as last observed (no credits spent). Admin tokens only (SUPER_ADMIN, ADMIN): ' +
      'API-key tenants read lens data through billed operations.',
  })
  async account(
    @Arg('accountId') accountId: string,
    @Ctx() context: LensContext,
  ): Promise<Account> {
    await context.staff(['SUPER_ADMIN', 'ADMIN']);
    return Account.fromObservation(accountId, await context.accountLoader.load(accountId));
  }
}

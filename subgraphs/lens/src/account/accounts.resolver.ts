import { Arg, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import type { LensContext } from '../context.js';
import { LensOperation } from '../operation/operation.type.js';
import type { OperationDefinition } from '../operation/operation-definition.js';
import { Account } from './account.type.js';
import { AccountsProfileInput, profileOperation } from './profile.operation.js';

async function run<I>(
  context: LensContext,
  definition: OperationDefinition<I>,
  key: string,
  input: unknown,
) {
  const outcome = await context.services.operations.run(
    context.em,
    context.tenant,
    definition,
    key,
    input,
  );
  return LensOperation.from(outcome.operation, outcome.replayed);
}

/** The lens data operations; each is one billed operation of the engine. */
@Resolver()
export class AccountsResolver {
  @Mutation(() => LensOperation, {
    description: 'accounts.profile: the account summary (lens spec 2.3).',
  })
  accountsProfile(
    @Arg('idempotencyKey') idempotencyKey: string,
    @Arg('input', () => AccountsProfileInput) input: AccountsProfileInput,
    @Ctx() context: LensContext,
  ): Promise<LensOperation> {
    return run(context, profileOperation, idempotencyKey, input);
  }

  @Query(() => Account, { description: 'An account as last observed (no credits spent).' })
  async account(
    @Arg('accountId') accountId: string,
    @Ctx() context: LensContext,
  ): Promise<Account> {
    return Account.fromObservation(accountId, await context.accountLoader.load(accountId));
  }
}

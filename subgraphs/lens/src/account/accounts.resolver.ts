import { Arg, Authorized, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import { lensOperationList, typeName, type LensOperationContract } from '@campaign/schema';
import type { LensContext } from '../context.js';
import { operationInputType } from '../operation/graphql-input.js';
import { LensOperation } from '../operation/operation.type.js';
import { Account } from './account.type.js';

/**
 * `accounts<Name>(idempotencyKey, input)`: one lens data operation (lens spec section 4) as a
 * billed operation of the engine, made from the operation's contract. The engine reads the input
 * first, then authenticates and runs the definition's `validate` (a paging cursor bound to
 * another tenant is a 400 there, before anything is reserved: DESIGN.md L2, L9).
 */
function operationResolver(contract: LensOperationContract) {
  const Input = operationInputType(contract);

  @Resolver()
  class OperationMutation {
    @Mutation(() => LensOperation, { name: contract.field, description: contract.description })
    async run(
      @Arg('idempotencyKey', () => String) idempotencyKey: string,
      @Arg('input', () => Input) input: unknown,
      @Ctx() context: LensContext,
    ): Promise<LensOperation> {
      const outcome = await context.services.operations.run(
        context.db,
        context.caller,
        contract.name,
        idempotencyKey,
        input,
      );
      return LensOperation.from(outcome.operation, outcome.replayed);
    }
  }
  Object.defineProperty(OperationMutation, 'name', { value: typeName(contract, 'Resolver') });
  return OperationMutation;
}

/** The thirteen mutations, in the order of lens spec section 4. */
export const operationResolvers = lensOperationList.map(operationResolver);

@Resolver()
export class AccountResolver {
  @Authorized('SUPER_ADMIN', 'ADMIN')
  @Query(() => Account, {
    description:
      'An account as last observed (no credits spent). Admin tokens only (SUPER_ADMIN, ADMIN): ' +
      'API-key tenants read lens data through billed operations.',
  })
  async account(
    @Arg('accountId') accountId: string,
    @Ctx() context: LensContext,
  ): Promise<Account> {
    return Account.fromObservation(accountId, await context.accountLoader.load(accountId));
  }
}

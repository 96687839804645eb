import { Arg, Ctx, ID, Query, Resolver } from 'type-graphql';
import type { LensContext } from '../context.js';
import { LensOperation } from './operation.type.js';

@Resolver()
export class OperationResolver {
  @Query(() => LensOperation, {
    description: "An operation of the caller's tenant, whatever its status.",
  })
  async operation(
    @Arg('operationId', () => ID) operationId: string,
    @Ctx() context: LensContext,
  ): Promise<LensOperation> {
    const tenant = await context.tenant();
    const operation = await context.services.operations.findForTenant(
      context.em,
      tenant,
      operationId,
    );
    return LensOperation.from(operation, false);
  }
}

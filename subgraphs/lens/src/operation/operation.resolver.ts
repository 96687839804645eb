import { Arg, Ctx, ID, Int, Query, Resolver } from 'type-graphql';
import type { LensContext } from '../context.js';
import { LensOperation, LensOperationPage, OperationStatusValue } from './operation.type.js';

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
      tenant.id,
      operationId,
    );
    return LensOperation.from(operation, false);
  }

  @Query(() => LensOperationPage, {
    description: "The caller's operations, newest first; `first` 1-100 (default 20).",
  })
  async operations(
    @Ctx() context: LensContext,
    @Arg('status', () => OperationStatusValue, { nullable: true }) status?: OperationStatusValue,
    @Arg('first', () => Int, { nullable: true }) first?: number,
    @Arg('after', () => String, { nullable: true }) after?: string,
  ): Promise<LensOperationPage> {
    const tenant = await context.tenant();
    const page = await context.services.queries.forTenant(context.em, tenant.id, {
      status: status ?? null,
      first: first ?? null,
      after: after ?? null,
    });
    return {
      items: page.items.map((o) => LensOperation.from(o, false)),
      nextCursor: page.nextCursor,
    };
  }
}

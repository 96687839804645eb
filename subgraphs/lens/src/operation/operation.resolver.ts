import { Arg, Args, Ctx, ID, Query, Resolver } from 'type-graphql';
import { AccountTenant } from '../account-console/account-access.js';
import type { LensContext } from '../context.js';
import { LensPageArgs, pageOf } from '../page-args.js';

import { LensOperation, LensOperationPage, OperationStatusValue } from './operation.type.js';

@Resolver()
export class OperationResolver {
  @Query(() => LensOperation, {
    description: "An operation of the caller's tenant, whatever its status.",
  })
  async operation(
    @Arg('operationId', () => ID) operationId: string,
    @Ctx() context: LensContext,
    @AccountTenant('read') tenant: string,
  ): Promise<LensOperation> {
    const operation = await context.services.operations.findForTenant(
      context.db,
      tenant,
      operationId,
    );
    return LensOperation.from(operation, false);
  }

  @Query(() => LensOperationPage, {
    description: "The caller's operations, newest first; `first` 1-100 (default 20).",
  })
  async operations(
    @Ctx() context: LensContext,
    @Arg('status', () => OperationStatusValue, { nullable: true })
    status: OperationStatusValue | undefined,
    @Args(() => LensPageArgs) paging: LensPageArgs,
    @AccountTenant('read') tenant: string,
  ): Promise<LensOperationPage> {
    const page = await context.services.queries.forTenant(context.em, tenant, {
      status: status ?? null,
      ...pageOf(paging),
    });
    return LensOperationPage.from(page);
  }
}

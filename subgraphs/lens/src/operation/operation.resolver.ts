import { Arg, Args, Ctx, ID, Query, Resolver } from 'type-graphql';
import { accountTenant, TenantIdArg } from '../account-console/account-access.js';
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
    @TenantIdArg() tenantId?: string,
  ): Promise<LensOperation> {
    const tenant = await accountTenant(context, tenantId, 'read');
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
    @TenantIdArg() tenantId?: string,
  ): Promise<LensOperationPage> {
    const tenant = await accountTenant(context, tenantId, 'read');
    const page = await context.services.queries.forTenant(context.em, tenant, {
      status: status ?? null,
      ...pageOf(paging),
    });
    return LensOperationPage.from(page);
  }
}

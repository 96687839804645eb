import { Arg, Ctx, ID, Int, Query, Resolver } from 'type-graphql';
import { accountTenant } from '../account-console/account-access.js';
import type { LensContext } from '../context.js';

const TENANT_ID = {
  nullable: true,
  description: 'The tenant: required with a SUPER_ADMIN token, implied by any other credential.',
} as const;
import { LensOperation, LensOperationPage, OperationStatusValue } from './operation.type.js';

@Resolver()
export class OperationResolver {
  @Query(() => LensOperation, {
    description: "An operation of the caller's tenant, whatever its status.",
  })
  async operation(
    @Arg('operationId', () => ID) operationId: string,
    @Ctx() context: LensContext,
    @Arg('tenantId', () => ID, TENANT_ID) tenantId?: string,
  ): Promise<LensOperation> {
    const tenant = await accountTenant(context, tenantId, 'read');
    const operation = await context.services.operations.findForTenant(
      context.em,
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
    @Arg('status', () => OperationStatusValue, { nullable: true }) status?: OperationStatusValue,
    @Arg('first', () => Int, { nullable: true }) first?: number,
    @Arg('after', () => String, { nullable: true }) after?: string,
    @Arg('tenantId', () => ID, TENANT_ID) tenantId?: string,
  ): Promise<LensOperationPage> {
    const tenant = await accountTenant(context, tenantId, 'read');
    const page = await context.services.queries.forTenant(context.em, tenant, {
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

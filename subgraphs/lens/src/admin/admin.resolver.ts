import {
  Arg,
  Args,
  Authorized,
  Ctx,
  ID,
  Mutation,
  Query,
  registerEnumType,
  Resolver,
} from 'type-graphql';
import type { LensContext } from '../context.js';
import { LensPageArgs, pageOf } from '../page-args.js';
import { LensOperation, LensOperationPage } from '../operation/operation.type.js';

export enum ReconciliationResolution {
  RERUN = 'RERUN',
  FAIL = 'FAIL',
}
registerEnumType(ReconciliationResolution, {
  name: 'ReconciliationResolution',
  description: 'RERUN reads again and settles on the outcome; FAIL gives up with a full refund.',
});

/**
 * Lens administration: SUPER_ADMIN tokens only. An ADMIN is scoped to one agency's settlements
 * and has no say over lens tenants; an API key is no platform token at all (401).
 */
@Resolver()
export class AdminResolver {
  @Authorized('SUPER_ADMIN')
  @Query(() => LensOperationPage, {
    description: 'Admin: every operation in RECONCILIATION_REQUIRED, oldest first.',
  })
  async operationsRequiringReconciliation(
    @Ctx() context: LensContext,
    @Args(() => LensPageArgs) paging: LensPageArgs,
  ): Promise<LensOperationPage> {
    const page = await context.services.queries.requiringReconciliation(context.em, pageOf(paging));
    return LensOperationPage.from(page);
  }

  @Authorized('SUPER_ADMIN')
  @Mutation(() => LensOperation, {
    description: 'Admin: resolves an operation in RECONCILIATION_REQUIRED to SUCCEEDED or FAILED.',
  })
  async resolveOperation(
    @Arg('operationId', () => ID) operationId: string,
    @Ctx() context: LensContext,
    @Arg('resolution', () => ReconciliationResolution, {
      defaultValue: ReconciliationResolution.RERUN,
    })
    resolution: ReconciliationResolution,
  ): Promise<LensOperation> {
    const operation = await context.services.reconciliation.resolve(
      context.em,
      operationId,
      resolution,
      await context.principal(),
    );
    return LensOperation.from(operation, false);
  }

  @Authorized('SUPER_ADMIN')
  @Mutation(() => Boolean, {
    description: 'Admin: revokes an API key for good; false when unknown or already revoked.',
  })
  async revokeApiKey(@Arg('apiKey') apiKey: string, @Ctx() context: LensContext): Promise<boolean> {
    return context.services.tenants.revokeKey(context.em, apiKey);
  }
}

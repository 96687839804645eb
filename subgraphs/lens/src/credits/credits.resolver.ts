import { Arg, Ctx, ID, Int, Query, Resolver } from 'type-graphql';
import { accountTenant } from '../account-console/account-access.js';
import type { LensContext } from '../context.js';
import { CreditLedgerPage } from './credits.type.js';

const TENANT_ID = {
  nullable: true,
  description: 'The tenant: required with a SUPER_ADMIN token, implied by any other credential.',
} as const;

@Resolver()
export class CreditsResolver {
  @Query(() => Int, { description: "The caller's tenant credit balance." })
  async creditBalance(
    @Ctx() context: LensContext,
    @Arg('tenantId', () => ID, TENANT_ID) tenantId?: string,
  ): Promise<number> {
    const tenant = await accountTenant(context, tenantId, 'read');
    return Number(await context.services.credits.balance(context.em, tenant));
  }

  @Query(() => CreditLedgerPage, {
    description: "The caller's ledger entries, newest first; `first` 1-100 (default 20).",
  })
  async creditLedger(
    @Ctx() context: LensContext,
    @Arg('first', () => Int, { nullable: true }) first?: number,
    @Arg('after', () => String, { nullable: true }) after?: string,
    @Arg('tenantId', () => ID, TENANT_ID) tenantId?: string,
  ): Promise<CreditLedgerPage> {
    const tenant = await accountTenant(context, tenantId, 'read');
    return context.services.ledger.forTenant(context.em, tenant, {
      first: first ?? null,
      after: after ?? null,
    });
  }
}

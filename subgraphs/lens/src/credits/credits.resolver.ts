import { Args, Ctx, Int, Query, Resolver } from 'type-graphql';
import { accountTenant, TenantIdArg } from '../account-console/account-access.js';
import type { LensContext } from '../context.js';
import { LensPageArgs, pageOf } from '../page-args.js';
import { CreditLedgerPage } from './credits.type.js';

@Resolver()
export class CreditsResolver {
  @Query(() => Int, { description: "The caller's tenant credit balance." })
  async creditBalance(
    @Ctx() context: LensContext,
    @TenantIdArg() tenantId?: string,
  ): Promise<number> {
    const tenant = await accountTenant(context, tenantId, 'read');
    return Number(await context.services.credits.balance(context.em, tenant));
  }

  @Query(() => CreditLedgerPage, {
    description: "The caller's ledger entries, newest first; `first` 1-100 (default 20).",
  })
  async creditLedger(
    @Ctx() context: LensContext,
    @Args(() => LensPageArgs) paging: LensPageArgs,
    @TenantIdArg() tenantId?: string,
  ): Promise<CreditLedgerPage> {
    const tenant = await accountTenant(context, tenantId, 'read');
    return context.services.ledger.forTenant(context.em, tenant, pageOf(paging));
  }
}

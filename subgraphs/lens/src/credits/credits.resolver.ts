import { Args, Ctx, Int, Query, Resolver } from 'type-graphql';
import { AccountTenant } from '../account-console/account-access.js';
import type { LensContext } from '../context.js';
import { LensPageArgs, pageOf } from '../page-args.js';
import { CreditLedgerPage } from './credits.type.js';

@Resolver()
export class CreditsResolver {
  @Query(() => Int, { description: "The caller's tenant credit balance." })
  async creditBalance(
    @Ctx() context: LensContext,
    @AccountTenant('read') tenant: string,
  ): Promise<number> {
    return Number(await context.services.credits.balance(context.em, tenant));
  }

  @Query(() => CreditLedgerPage, {
    description: "The caller's ledger entries, newest first; `first` 1-100 (default 20).",
  })
  async creditLedger(
    @Ctx() context: LensContext,
    @Args(() => LensPageArgs) paging: LensPageArgs,
    @AccountTenant('read') tenant: string,
  ): Promise<CreditLedgerPage> {
    return context.services.ledger.forTenant(context.em, tenant, pageOf(paging));
  }
}

import { Arg, Ctx, Int, Query, Resolver } from 'type-graphql';
import type { LensContext } from '../context.js';
import { CreditLedgerPage } from './credits.type.js';

@Resolver()
export class CreditsResolver {
  @Query(() => Int, { description: "The caller's tenant credit balance." })
  async creditBalance(@Ctx() context: LensContext): Promise<number> {
    const tenant = await context.tenant();
    return Number(await context.services.credits.balance(context.em, tenant.id));
  }

  @Query(() => CreditLedgerPage, {
    description: "The caller's ledger entries, newest first; `first` 1-100 (default 20).",
  })
  async creditLedger(
    @Ctx() context: LensContext,
    @Arg('first', () => Int, { nullable: true }) first?: number,
    @Arg('after', () => String, { nullable: true }) after?: string,
  ): Promise<CreditLedgerPage> {
    const tenant = await context.tenant();
    return context.services.ledger.forTenant(context.em, tenant.id, {
      first: first ?? null,
      after: after ?? null,
    });
  }
}

import { Arg, Ctx, FieldResolver, ID, Query, Resolver, Root } from 'type-graphql';
import type { SettlementContext } from '../context.js';
import { Partner } from '../partner/partner.entity.js';
import { Settlement } from './settlement.entity.js';
import { SettlementService } from './settlement.service.js';

const settlements = new SettlementService();

@Resolver(() => Settlement)
export class SettlementResolver {
  @Query(() => Settlement, { description: 'GET /api/admin/settlements/:id' })
  async settlement(@Arg('id', () => ID) id: string, @Ctx() ctx: SettlementContext) {
    return settlements.getVisible(ctx.em, await ctx.principal(), id);
  }

  @FieldResolver(() => Partner)
  partner(@Root() settlement: Settlement, @Ctx() ctx: SettlementContext) {
    return ctx.loaders.partner.load(settlement.partnerId);
  }
}

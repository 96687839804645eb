import { Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import type { SettlementContext } from './context.js';
import { Settlement } from '../domain/settlement/settlement.entity.js';
import { PartnerPayout } from '../domain/payout/partner-payout.entity.js';

@Resolver(() => PartnerPayout)
export class PartnerPayoutResolver {
  @FieldResolver(() => [Settlement], { description: 'The settlements this payout covers' })
  // A type, not the class: the stored row is not copied into an entity (settlement.resolver.ts).
  settlements(@Root() payout: Pick<PartnerPayout, 'id'>, @Ctx() ctx: SettlementContext) {
    return ctx.loaders.settlementsByPayout.load(payout.id);
  }
}

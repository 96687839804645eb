import { Arg, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root } from 'type-graphql';
import { requireAdmin } from '../auth/principal.js';
import type { SettlementContext } from '../context.js';
import { Settlement } from '../settlement/settlement.entity.js';
import { Campaign } from './campaign.entity.js';
import { CreateCampaignInput } from './campaign.inputs.js';
import { CampaignService } from './campaign.service.js';

const campaigns = new CampaignService();

@Resolver(() => Campaign)
export class CampaignResolver {
  @Mutation(() => Campaign)
  async createCampaign(
    @Arg('input', () => CreateCampaignInput) input: CreateCampaignInput,
    @Ctx() ctx: SettlementContext,
  ) {
    const principal = await ctx.principal();
    requireAdmin(principal);
    return campaigns.create(ctx.em, input, principal);
  }

  @Mutation(() => Campaign, {
    description: 'Marks the campaign UPLOADED and creates its settlement, once.',
  })
  async markCampaignUploaded(@Arg('id', () => ID) id: string, @Ctx() ctx: SettlementContext) {
    const principal = await ctx.principal();
    requireAdmin(principal);
    return campaigns.markUploaded(ctx.em, id, principal);
  }

  @Query(() => Campaign)
  async campaign(@Arg('id', () => ID) id: string, @Ctx() ctx: SettlementContext) {
    const principal = await ctx.principal();
    requireAdmin(principal);
    return campaigns.getVisible(ctx.em, principal, id);
  }

  @FieldResolver(() => Settlement, { nullable: true })
  settlement(@Root() campaign: Campaign, @Ctx() ctx: SettlementContext) {
    return ctx.loaders.settlementByCampaign.load(campaign.id);
  }
}

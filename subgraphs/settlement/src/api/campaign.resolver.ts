import { Arg, Authorized, Ctx, FieldResolver, Mutation, Query, Resolver, Root } from 'type-graphql';
import { IdArg } from './id-arg.js';
import { ADMIN_ROLES } from '../kernel/principal.js';
import type { SettlementContext } from './context.js';
import { Settlement } from '../domain/settlement/settlement.entity.js';
import { Campaign } from '../domain/campaign/campaign.entity.js';
import { CreateCampaignInput, UpdateCampaignInput } from '../domain/campaign/campaign.inputs.js';

@Resolver(() => Campaign)
export class CampaignResolver {
  @Authorized(ADMIN_ROLES)
  @Mutation(() => Campaign)
  async createCampaign(
    @Arg('input', () => CreateCampaignInput) input: CreateCampaignInput,
    @Ctx() ctx: SettlementContext,
  ) {
    const principal = await ctx.principal();
    return ctx.services.campaigns.create(ctx.em, input, principal);
  }

  @Authorized(ADMIN_ROLES)
  @Mutation(() => Campaign, {
    description: 'Marks the campaign UPLOADED and creates its settlement, once.',
  })
  async markCampaignUploaded(@IdArg() id: string, @Ctx() ctx: SettlementContext) {
    const principal = await ctx.principal();
    return ctx.services.campaignUpload.markUploaded(ctx.em, id, principal);
  }

  @Authorized(ADMIN_ROLES)
  @Mutation(() => Campaign, {
    description:
      'Changes title, price, commission rate and agency. Price, rate and agency follow through ' +
      'to the settlement (recalculated, back to SETTLEMENT_PENDING) only while no money has ' +
      'moved (DESIGN S5); later a 409 says why.',
  })
  async updateCampaign(
    @IdArg() id: string,
    @Arg('input', () => UpdateCampaignInput) input: UpdateCampaignInput,
    @Ctx() ctx: SettlementContext,
  ) {
    return ctx.services.campaignChange.update(ctx.em, await ctx.principal(), id, input);
  }

  @Authorized(ADMIN_ROLES)
  @Query(() => Campaign)
  async campaign(@IdArg() id: string, @Ctx() ctx: SettlementContext) {
    return ctx.services.campaigns.getVisible(ctx.em, await ctx.principal(), id);
  }

  @FieldResolver(() => Settlement, { nullable: true })
  settlement(@Root() campaign: Campaign, @Ctx() ctx: SettlementContext) {
    return ctx.loaders.settlementByCampaign.load(campaign.id);
  }
}

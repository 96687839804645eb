import { Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import { NoReads, operation, operations } from './operations.js';
import { ADMIN_ROLES } from '../kernel/principal.js';
import type { SettlementContext } from './context.js';
import { Settlement } from '../domain/settlement/settlement.entity.js';
import { Campaign } from '../domain/campaign/campaign.entity.js';
import { CreateCampaignInput, UpdateCampaignInput } from '../domain/campaign/campaign.inputs.js';

@Resolver(() => Campaign)
export class CampaignResolver extends operations(
  NoReads,
  { roles: ADMIN_ROLES, returns: () => Campaign },
  {
    createCampaign: operation({
      arg: ['input', () => CreateCampaignInput],
      run: async (ctx, _id, input) =>
        ctx.services.campaigns.create(ctx.em, input, await ctx.principal()),
    }),
    markCampaignUploaded: {
      description: 'Marks the campaign UPLOADED and creates its settlement, once.',
      id: true,
      run: async (ctx, id) =>
        ctx.services.campaignUpload.markUploaded(ctx.em, id, await ctx.principal()),
    },
    updateCampaign: operation({
      description:
        'Changes title, price, commission rate and agency. Price, rate and agency follow through ' +
        'to the settlement (recalculated, back to SETTLEMENT_PENDING) only while no money has ' +
        'moved (DESIGN S5); later a 409 says why.',
      id: true,
      arg: ['input', () => UpdateCampaignInput],
      run: async (ctx, id, input) =>
        ctx.services.campaignChange.update(ctx.em, await ctx.principal(), id, input),
    }),
    campaign: {
      query: true,
      id: true,
      run: async (ctx, id) => ctx.services.campaigns.getVisible(ctx.em, await ctx.principal(), id),
    },
  },
) {
  @FieldResolver(() => Settlement, { nullable: true })
  settlement(@Root() campaign: Campaign, @Ctx() ctx: SettlementContext) {
    return ctx.loaders.settlementByCampaign.load(campaign.id);
  }
}

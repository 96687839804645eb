import { Arg, Ctx, FieldResolver, Mutation, Resolver, Root } from 'type-graphql';
import { requireAdmin } from '../auth/principal.js';
import { AccountReference } from '../account/account.stub.js';
import { Advertiser } from '../advertiser/advertiser.entity.js';
import type { SettlementContext } from '../context.js';
import { CreateAdvertiserInput, CreatePartnerInput } from './partner.inputs.js';
import { Partner } from './partner.entity.js';
import { PartnerService } from './partner.service.js';

const partners = new PartnerService();

@Resolver(() => Partner)
export class PartnerResolver {
  @Mutation(() => Partner)
  async createPartner(
    @Arg('input', () => CreatePartnerInput) input: CreatePartnerInput,
    @Ctx() ctx: SettlementContext,
  ) {
    requireAdmin(await ctx.principal());
    return partners.createPartner(ctx.em, input);
  }

  @Mutation(() => Advertiser)
  async createAdvertiser(
    @Arg('input', () => CreateAdvertiserInput) input: CreateAdvertiserInput,
    @Ctx() ctx: SettlementContext,
  ) {
    requireAdmin(await ctx.principal());
    return partners.createAdvertiser(ctx.em, input);
  }

  @FieldResolver(() => AccountReference, {
    nullable: true,
    description: "The partner's social account (lens)",
  })
  account(@Root() partner: Partner): AccountReference | null {
    return partner.accountId
      ? Object.assign(new AccountReference(), { accountId: partner.accountId })
      : null;
  }
}

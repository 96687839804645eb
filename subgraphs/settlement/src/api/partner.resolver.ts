import { Arg, Authorized, Ctx, FieldResolver, Mutation, Resolver, Root } from 'type-graphql';
import { IdArg } from './id-arg.js';
import { ADMIN_ROLES } from '../kernel/principal.js';
import { AccountReference } from '../domain/partner/account.stub.js';
import { Advertiser } from '../domain/advertiser/advertiser.entity.js';
import type { SettlementContext } from './context.js';
import {
  CreateAdvertiserInput,
  CreatePartnerInput,
  UpdatePartnerInput,
} from '../domain/partner/partner.inputs.js';
import { Partner } from '../domain/partner/partner.entity.js';

@Resolver(() => Partner)
export class PartnerResolver {
  @Authorized(ADMIN_ROLES)
  @Mutation(() => Partner)
  async createPartner(
    @Arg('input', () => CreatePartnerInput) input: CreatePartnerInput,
    @Ctx() ctx: SettlementContext,
  ) {
    return ctx.services.partners.createPartner(ctx.em, input);
  }

  @Authorized(ADMIN_ROLES)
  @Mutation(() => Partner, {
    description: "Changes a partner's fields (a missing business number recorded, issue 23)",
  })
  async updatePartner(
    @IdArg() id: string,
    @Arg('input', () => UpdatePartnerInput) input: UpdatePartnerInput,
    @Ctx() ctx: SettlementContext,
  ) {
    return ctx.services.partners.updatePartner(ctx.em, id, input);
  }

  @Authorized(ADMIN_ROLES)
  @Mutation(() => Advertiser)
  async createAdvertiser(
    @Arg('input', () => CreateAdvertiserInput) input: CreateAdvertiserInput,
    @Ctx() ctx: SettlementContext,
  ) {
    return ctx.services.partners.createAdvertiser(ctx.em, input);
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

import { FieldResolver, Resolver, Root } from 'type-graphql';
import { NoReads, operation, operations } from './operations.js';
import { ADMIN_ROLES } from '../kernel/principal.js';
import { AccountReference } from '../domain/partner/account.stub.js';
import { Advertiser } from '../domain/advertiser/advertiser.entity.js';
import {
  CreateAdvertiserInput,
  CreatePartnerInput,
  UpdatePartnerInput,
} from '../domain/partner/partner.inputs.js';
import { Partner } from '../domain/partner/partner.entity.js';

@Resolver(() => Partner)
export class PartnerResolver extends operations(
  NoReads,
  { roles: ADMIN_ROLES, returns: () => Partner },
  {
    createPartner: operation({
      arg: ['input', () => CreatePartnerInput],
      run: async (ctx, _id, input) => ctx.services.partners.createPartner(ctx.em, input),
    }),
    updatePartner: operation({
      description: "Changes a partner's fields (a missing business number recorded, issue 23)",
      id: true,
      arg: ['input', () => UpdatePartnerInput],
      run: async (ctx, id, input) => ctx.services.partners.updatePartner(ctx.em, id, input),
    }),
    createAdvertiser: operation({
      returns: () => Advertiser,
      arg: ['input', () => CreateAdvertiserInput],
      run: async (ctx, _id, input) => ctx.services.partners.createAdvertiser(ctx.em, input),
    }),
  },
) {
  @FieldResolver(() => AccountReference, {
    nullable: true,
    description: "The partner's social account (lens)",
  })
  // A type, not the class: the stored row is not copied into an entity (settlement.resolver.ts).
  account(@Root() partner: Pick<Partner, 'accountId'>): AccountReference | null {
    return partner.accountId
      ? Object.assign(new AccountReference(), { accountId: partner.accountId })
      : null;
  }
}

import { Arg, Ctx, Query, Resolver } from 'type-graphql';
import type { SettlementContext } from './context.js';
import { BusinessVerification } from '../flows/business/business-verification.type.js';

@Resolver()
export class BusinessVerificationResolver {
  /**
   * Public on purpose (no @Authorized): sign-up and onboarding forms call it before anyone has a
   * token. The per-address rate limit is what protects it, and it is counted before anything.
   */
  @Query(() => BusinessVerification, {
    description:
      'POST /api/public/business/verify (no token): "1234567891" or "123-45-67891"; ' +
      '30 requests per client address per 15 minutes, shared with the REST path',
  })
  async verifyBusinessNumber(
    @Arg('businessNumber', () => String) businessNumber: string,
    @Ctx() ctx: SettlementContext,
  ): Promise<BusinessVerification> {
    const status = await ctx.services.businessVerification.verify(
      ctx.em,
      ctx.clientAddress,
      businessNumber,
    );
    return Object.assign(new BusinessVerification(), status);
  }
}

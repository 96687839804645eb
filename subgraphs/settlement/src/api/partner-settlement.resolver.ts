import { Arg, Authorized, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import { IdArg } from './id-arg.js';
import type { SettlementContext } from './context.js';
import { ReadResolver } from './read-resolver.js';
import { settlementActions, withInlineReverseIssuance } from './settlement-actions.js';
import {
  PartnerSettlementFilter,
  SettlementActionInput,
} from '../domain/settlement/settlement.inputs.js';
import {
  PartnerSettlementSummary,
  ReverseIssuanceGrant,
  SettlementPage,
} from '../domain/settlement/settlement-page.js';
import { Settlement } from '../domain/settlement/settlement.entity.js';

/** The partner's actions on a DIRECT_INVOICE settlement (spec 4.2), as the admin's. */
export const PartnerSettlementActionResolver = settlementActions(
  ['PARTNER'],
  '/api/partner/settlements',
  {
    partnerMarkInvoiceIssued: ['invoice-issued', (w) => w.directFlow.markInvoiceIssued],
    partnerMarkInvoicePaid: ['invoice-paid', (w) => w.directFlow.markInvoicePaid],
  },
);

/**
 * The partner operations: one per path of spec section 4.2, for the partner's own settlements
 * (the scope of a PARTNER token). An admin token is 403: it has no partner to serve.
 */
@Resolver()
export class PartnerSettlementResolver extends ReadResolver(
  Settlement,
  SettlementPage,
  PartnerSettlementFilter,
  {
    roles: ['PARTNER'],
    list: ['partnerSettlements', 'GET /api/partner/settlements', (s) => s.queries],
    get: ['partnerSettlement', 'GET /api/partner/settlements/:id', (s) => s.settlements],
  },
) {
  @Authorized('PARTNER')
  @Query(() => PartnerSettlementSummary, { description: 'GET /api/partner/settlements/summary' })
  async partnerSettlementSummary(@Ctx() ctx: SettlementContext) {
    return ctx.services.queries.summary(ctx.em, await ctx.principal());
  }

  @Authorized('PARTNER')
  @Query(() => ReverseIssuanceGrant, {
    description:
      'GET /api/partner/settlements/:id/reverse-issuance-grant-url: the approval URL of the ' +
      'pending reverse issuance; after a FAILURE or a cancellation it starts a new one first',
  })
  async reverseIssuanceGrantUrl(@IdArg() id: string, @Ctx() ctx: SettlementContext) {
    const principal = await ctx.principal();
    await ctx.services.settlements.get(ctx.em, principal, id);
    // After a FAILURE or a cancellation the link starts a new reverse issuance (issue 23 item 3).
    const { reverseRetry } = ctx.services.workflow;
    if (await reverseRetry.needsRetry(ctx.em, id)) {
      await withInlineReverseIssuance(ctx, await reverseRetry.retry(ctx.em, principal, id));
    }
    return ctx.services.taxInvoices.grantUrl(ctx.em.fork(), id, principal);
  }

  @Authorized('PARTNER')
  @Mutation(() => Settlement, { description: 'POST /api/partner/settlements/:id/request' })
  async requestSettlement(
    @IdArg() id: string,
    @Ctx() ctx: SettlementContext,
    @Arg('input', () => SettlementActionInput, { nullable: true }) input?: SettlementActionInput,
  ) {
    const principal = await ctx.principal();
    const settlement = await ctx.services.workflow.partnerRequest.request(
      ctx.em,
      principal,
      id,
      input,
    );
    return withInlineReverseIssuance(ctx, settlement);
  }
}

import { Arg, Authorized, Ctx, ID, Int, Mutation, Query, Resolver } from 'type-graphql';
import type { SettlementContext } from '../context.js';
import { PartnerSettlementFilter, SettlementActionInput } from './settlement.inputs.js';
import {
  PartnerSettlementSummary,
  ReverseIssuanceGrant,
  SettlementPage,
} from './settlement-page.js';
import { Settlement } from './settlement.entity.js';

/**
 * The partner operations: one per path of spec section 4.2, for the partner's own settlements
 * (the scope of a PARTNER token). An admin token is 403: it has no partner to serve.
 */
@Resolver()
export class PartnerSettlementResolver {
  @Authorized('PARTNER')
  @Query(() => SettlementPage, { description: 'GET /api/partner/settlements' })
  async partnerSettlements(
    @Ctx() ctx: SettlementContext,
    @Arg('filter', () => PartnerSettlementFilter, { nullable: true })
    filter?: PartnerSettlementFilter,
    @Arg('cursor', () => String, { nullable: true }) cursor?: string,
    @Arg('limit', () => Int, { nullable: true, description: '1 to 100, default 20' })
    limit?: number,
  ) {
    return ctx.services.queries.list(ctx.em, await ctx.principal(), filter, cursor, limit);
  }

  @Authorized('PARTNER')
  @Query(() => PartnerSettlementSummary, { description: 'GET /api/partner/settlements/summary' })
  async partnerSettlementSummary(@Ctx() ctx: SettlementContext) {
    return ctx.services.queries.summary(ctx.em, await ctx.principal());
  }

  @Authorized('PARTNER')
  @Query(() => Settlement, { description: 'GET /api/partner/settlements/:id' })
  async partnerSettlement(@Arg('id', () => ID) id: string, @Ctx() ctx: SettlementContext) {
    return ctx.services.settlements.getVisible(ctx.em, await ctx.principal(), id);
  }

  @Authorized('PARTNER')
  @Query(() => ReverseIssuanceGrant, {
    description: 'GET /api/partner/settlements/:id/reverse-issuance-grant-url',
  })
  async reverseIssuanceGrantUrl(@Arg('id', () => ID) id: string, @Ctx() ctx: SettlementContext) {
    const principal = await ctx.principal();
    await ctx.services.settlements.getVisible(ctx.em, principal, id);
    return ctx.services.taxInvoices.grantUrl(ctx.em, id, principal);
  }

  @Authorized('PARTNER')
  @Mutation(() => Settlement, { description: 'POST /api/partner/settlements/:id/request' })
  async requestSettlement(
    @Arg('id', () => ID) id: string,
    @Ctx() ctx: SettlementContext,
    @Arg('input', () => SettlementActionInput, { nullable: true }) input?: SettlementActionInput,
  ) {
    const { workflow, taxInvoices } = ctx.services;
    const settlement = await workflow.partnerRequest.request(
      ctx.em,
      await ctx.principal(),
      id,
      input,
    );
    // The move is committed; a business partner's approval URL is in the answer when the
    // provider gives it in time (TAX_INVOICE_INLINE_WAIT_MS), else the outbox keeps asking.
    await taxInvoices.requestReverseInline(ctx.em, settlement.id);
    // Read again: an instant approval already set partnerInvoiceReceivedAt.
    return ctx.em.findOneOrFail(Settlement, { id: settlement.id }, { refresh: true });
  }

  @Authorized('PARTNER')
  @Mutation(() => Settlement, { description: 'POST /api/partner/settlements/:id/invoice-issued' })
  async partnerMarkInvoiceIssued(
    @Arg('id', () => ID) id: string,
    @Ctx() ctx: SettlementContext,
    @Arg('input', () => SettlementActionInput, { nullable: true }) input?: SettlementActionInput,
  ) {
    const principal = await ctx.principal();
    return ctx.services.workflow.directFlow.markInvoiceIssued(ctx.em, principal, id, input);
  }

  @Authorized('PARTNER')
  @Mutation(() => Settlement, { description: 'POST /api/partner/settlements/:id/invoice-paid' })
  async partnerMarkInvoicePaid(
    @Arg('id', () => ID) id: string,
    @Ctx() ctx: SettlementContext,
    @Arg('input', () => SettlementActionInput, { nullable: true }) input?: SettlementActionInput,
  ) {
    const principal = await ctx.principal();
    return ctx.services.workflow.directFlow.markInvoicePaid(ctx.em, principal, id, input);
  }
}

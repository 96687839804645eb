import { Arg, Ctx, ID, Int, Mutation, Query, Resolver } from 'type-graphql';
import { requirePartner } from '../auth/principal.js';
import type { SettlementContext } from '../context.js';
import { ReverseIssuanceService } from '../reverse-issuance/reverse-issuance.service.js';
import { PartnerSettlementFilter, SettlementActionInput } from './settlement.inputs.js';
import {
  PartnerSettlementSummary,
  ReverseIssuanceGrant,
  SettlementPage,
} from './settlement-page.js';
import { SettlementQueryService } from './settlement-query.service.js';
import { SettlementWorkflow } from './settlement-workflow.service.js';
import { Settlement } from './settlement.entity.js';
import { SettlementService } from './settlement.service.js';

const settlements = new SettlementService();
const queries = new SettlementQueryService();
const workflow = new SettlementWorkflow();
const reverse = new ReverseIssuanceService();

/** The partner operations: one per path of spec section 4.2, for the partner's own settlements. */
@Resolver()
export class PartnerSettlementResolver {
  @Query(() => SettlementPage, { description: 'GET /api/partner/settlements' })
  async partnerSettlements(
    @Ctx() ctx: SettlementContext,
    @Arg('filter', () => PartnerSettlementFilter, { nullable: true })
    filter?: PartnerSettlementFilter,
    @Arg('cursor', () => String, { nullable: true }) cursor?: string,
    @Arg('limit', () => Int, { nullable: true, description: '1 to 100, default 20' })
    limit?: number,
  ) {
    const principal = await ctx.principal();
    requirePartner(principal);
    return queries.list(ctx.em, principal, filter, cursor, limit);
  }

  @Query(() => PartnerSettlementSummary, { description: 'GET /api/partner/settlements/summary' })
  async partnerSettlementSummary(@Ctx() ctx: SettlementContext) {
    return queries.partnerSummary(ctx.em, requirePartner(await ctx.principal()));
  }

  @Query(() => Settlement, { description: 'GET /api/partner/settlements/:id' })
  async partnerSettlement(@Arg('id', () => ID) id: string, @Ctx() ctx: SettlementContext) {
    const principal = await ctx.principal();
    requirePartner(principal);
    return settlements.getVisible(ctx.em, principal, id);
  }

  @Query(() => ReverseIssuanceGrant, {
    description: 'GET /api/partner/settlements/:id/reverse-issuance-grant-url',
  })
  async reverseIssuanceGrantUrl(@Arg('id', () => ID) id: string, @Ctx() ctx: SettlementContext) {
    const principal = await ctx.principal();
    requirePartner(principal);
    await settlements.getVisible(ctx.em, principal, id);
    return reverse.grantUrl(ctx.em, id);
  }

  @Mutation(() => Settlement, { description: 'POST /api/partner/settlements/:id/request' })
  async requestSettlement(
    @Arg('id', () => ID) id: string,
    @Ctx() ctx: SettlementContext,
    @Arg('input', () => SettlementActionInput, { nullable: true }) input?: SettlementActionInput,
  ) {
    const principal = await ctx.principal();
    requirePartner(principal);
    return workflow.request(ctx.em, principal, id, input);
  }

  @Mutation(() => Settlement, { description: 'POST /api/partner/settlements/:id/invoice-issued' })
  async partnerMarkInvoiceIssued(
    @Arg('id', () => ID) id: string,
    @Ctx() ctx: SettlementContext,
    @Arg('input', () => SettlementActionInput, { nullable: true }) input?: SettlementActionInput,
  ) {
    const principal = await ctx.principal();
    requirePartner(principal);
    return workflow.markInvoiceIssued(ctx.em, principal, id, input);
  }

  @Mutation(() => Settlement, { description: 'POST /api/partner/settlements/:id/invoice-paid' })
  async partnerMarkInvoicePaid(
    @Arg('id', () => ID) id: string,
    @Ctx() ctx: SettlementContext,
    @Arg('input', () => SettlementActionInput, { nullable: true }) input?: SettlementActionInput,
  ) {
    const principal = await ctx.principal();
    requirePartner(principal);
    return workflow.markInvoicePaid(ctx.em, principal, id, input);
  }
}

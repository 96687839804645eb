import { Arg, Ctx, FieldResolver, ID, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import { PlatformError } from '@campaign/schema';
import { requireAdmin } from '../auth/principal.js';
import { SettlementAuditEntry } from '../audit/settlement-audit.entity.js';
import { Campaign } from '../campaign/campaign.entity.js';
import type { SettlementContext } from '../context.js';
import { AdvertiserInvoice } from '../invoice/advertiser-invoice.entity.js';
import { Partner } from '../partner/partner.entity.js';
import { PartnerPayout } from '../payout/partner-payout.entity.js';
import { ReverseIssuance } from '../reverse-issuance/reverse-issuance.entity.js';
import { ReverseIssuanceService } from '../reverse-issuance/reverse-issuance.service.js';
import {
  ChangeSettlementStatusInput,
  ChangeSettlementTypeInput,
  CompleteSettlementInput,
  ConfirmPartnerInvoiceInput,
  SettlementActionInput,
  SettlementFilter,
} from './settlement.inputs.js';
import { SettlementPage } from './settlement-page.js';
import { SettlementQueryService } from './settlement-query.service.js';
import { SettlementWorkflow } from './settlement-workflow.service.js';
import { Settlement } from './settlement.entity.js';
import { SettlementService } from './settlement.service.js';

const settlements = new SettlementService();
const queries = new SettlementQueryService();
const workflow = new SettlementWorkflow();
const reverse = new ReverseIssuanceService();

const action = () => ({ nullable: true }) as const;

/** The admin operations: one per path of spec section 4.1, named after it (DESIGN.md 5). */
@Resolver(() => Settlement)
export class SettlementResolver {
  @Query(() => SettlementPage, { description: 'GET /api/admin/settlements' })
  async settlements(
    @Ctx() ctx: SettlementContext,
    @Arg('filter', () => SettlementFilter, { nullable: true }) filter?: SettlementFilter,
    @Arg('cursor', () => String, { nullable: true }) cursor?: string,
    @Arg('limit', () => Int, { nullable: true, description: '1 to 100, default 20' })
    limit?: number,
  ) {
    const principal = await ctx.principal();
    requireAdmin(principal);
    return queries.list(ctx.em, principal, filter, cursor, limit);
  }

  @Query(() => Settlement, { description: 'GET /api/admin/settlements/:id' })
  async settlement(@Arg('id', () => ID) id: string, @Ctx() ctx: SettlementContext) {
    const principal = await ctx.principal();
    requireAdmin(principal);
    return settlements.getVisible(ctx.em, principal, id);
  }

  @Query(() => ReverseIssuance, {
    description:
      'GET /api/admin/settlements/:id/reverse-issuance-status (the stored status; the live ' +
      'provider sync comes with the tax-invoice provider)',
  })
  async settlementReverseIssuanceStatus(
    @Arg('id', () => ID) id: string,
    @Ctx() ctx: SettlementContext,
  ) {
    const principal = await ctx.principal();
    requireAdmin(principal);
    await settlements.getVisible(ctx.em, principal, id);
    return reverse.stored(ctx.em, id);
  }

  @Mutation(() => Settlement, { description: 'PATCH /api/admin/settlements/:id/status' })
  async changeSettlementStatus(
    @Arg('id', () => ID) id: string,
    @Arg('input', () => ChangeSettlementStatusInput) input: ChangeSettlementStatusInput,
    @Ctx() ctx: SettlementContext,
  ) {
    const principal = await ctx.principal();
    requireAdmin(principal);
    return workflow.changeStatus(ctx.em, principal, id, input);
  }

  @Mutation(() => Settlement, { description: 'PATCH /api/admin/settlements/:id/type' })
  async changeSettlementType(
    @Arg('id', () => ID) id: string,
    @Arg('input', () => ChangeSettlementTypeInput) input: ChangeSettlementTypeInput,
    @Ctx() ctx: SettlementContext,
  ) {
    const principal = await ctx.principal();
    requireAdmin(principal);
    return workflow.changeType(ctx.em, principal, id, input);
  }

  @Mutation(() => Settlement, { description: 'POST /api/admin/settlements/:id/start-payout' })
  async startSettlementPayout(
    @Arg('id', () => ID) id: string,
    @Ctx() ctx: SettlementContext,
    @Arg('input', () => SettlementActionInput, action()) input?: SettlementActionInput,
  ) {
    const principal = await ctx.principal();
    requireAdmin(principal);
    return workflow.startPayout(ctx.em, principal, id, input);
  }

  @Mutation(() => Settlement, { description: 'POST /api/admin/settlements/:id/complete' })
  async completeSettlement(
    @Arg('id', () => ID) id: string,
    @Ctx() ctx: SettlementContext,
    @Arg('input', () => CompleteSettlementInput, action()) input?: CompleteSettlementInput,
  ) {
    const principal = await ctx.principal();
    requireAdmin(principal);
    return workflow.complete(ctx.em, principal, id, input);
  }

  @Mutation(() => Settlement, { description: 'POST /api/admin/settlements/:id/retry-issuance' })
  async retrySettlementIssuance(
    @Arg('id', () => ID) id: string,
    @Ctx() ctx: SettlementContext,
    @Arg('input', () => SettlementActionInput, action()) input?: SettlementActionInput,
  ) {
    const principal = await ctx.principal();
    requireAdmin(principal);
    return workflow.retryIssuance(ctx.em, principal, id, input);
  }

  @Mutation(() => Settlement, { description: 'POST /api/admin/settlements/:id/invoice-issued' })
  async markSettlementInvoiceIssued(
    @Arg('id', () => ID) id: string,
    @Ctx() ctx: SettlementContext,
    @Arg('input', () => SettlementActionInput, action()) input?: SettlementActionInput,
  ) {
    const principal = await ctx.principal();
    requireAdmin(principal);
    return workflow.markInvoiceIssued(ctx.em, principal, id, input);
  }

  @Mutation(() => Settlement, { description: 'POST /api/admin/settlements/:id/invoice-paid' })
  async markSettlementInvoicePaid(
    @Arg('id', () => ID) id: string,
    @Ctx() ctx: SettlementContext,
    @Arg('input', () => SettlementActionInput, action()) input?: SettlementActionInput,
  ) {
    const principal = await ctx.principal();
    requireAdmin(principal);
    return workflow.markInvoicePaid(ctx.em, principal, id, input);
  }

  @Mutation(() => Settlement, { description: 'POST /api/admin/settlements/:id/cancel' })
  async cancelSettlement(
    @Arg('id', () => ID) id: string,
    @Ctx() ctx: SettlementContext,
    @Arg('input', () => SettlementActionInput, action()) input?: SettlementActionInput,
  ) {
    const principal = await ctx.principal();
    requireAdmin(principal);
    return workflow.cancel(ctx.em, principal, id, input);
  }

  @Mutation(() => Settlement, {
    description:
      "Records that the partner's tax invoice was received (partnerInvoiceReceivedAt; DESIGN S4). " +
      'GraphQL only: the specification lists no REST path for it.',
  })
  async confirmPartnerInvoiceReceived(
    @Arg('id', () => ID) id: string,
    @Ctx() ctx: SettlementContext,
    @Arg('input', () => ConfirmPartnerInvoiceInput, action()) input?: ConfirmPartnerInvoiceInput,
  ) {
    const principal = await ctx.principal();
    requireAdmin(principal);
    return workflow.confirmPartnerInvoiceReceived(ctx.em, principal, id, input);
  }

  @FieldResolver(() => Partner)
  partner(@Root() settlement: Settlement, @Ctx() ctx: SettlementContext) {
    return ctx.loaders.partner.load(settlement.partnerId);
  }

  @FieldResolver(() => Campaign)
  campaign(@Root() settlement: Settlement, @Ctx() ctx: SettlementContext) {
    return ctx.loaders.campaign.load(settlement.campaignId);
  }

  @FieldResolver(() => AdvertiserInvoice, {
    nullable: true,
    description: "The advertiser invoice; admins only (null for a partner's token)",
  })
  async advertiserInvoice(@Root() settlement: Settlement, @Ctx() ctx: SettlementContext) {
    if (settlement.advertiserInvoiceId === null) return null;
    if ((await ctx.principal()).role === 'PARTNER') return null;
    return ctx.loaders.advertiserInvoice.load(settlement.advertiserInvoiceId);
  }

  @FieldResolver(() => PartnerPayout, { nullable: true })
  partnerPayout(@Root() settlement: Settlement, @Ctx() ctx: SettlementContext) {
    return settlement.partnerPayoutId === null
      ? null
      : ctx.loaders.partnerPayout.load(settlement.partnerPayoutId);
  }

  @FieldResolver(() => ReverseIssuance, {
    nullable: true,
    description: 'The reverse issuance of a business partner’s tax invoice, once requested',
  })
  reverseIssuance(@Root() settlement: Settlement, @Ctx() ctx: SettlementContext) {
    return ctx.loaders.reverseIssuanceBySettlement.load(settlement.id);
  }

  @FieldResolver(() => [SettlementAuditEntry], {
    description: 'Every move, type change and money-relevant edit, oldest first (admins only)',
  })
  async auditTrail(@Root() settlement: Settlement, @Ctx() ctx: SettlementContext) {
    const principal = await ctx.principal();
    if (principal.role === 'PARTNER')
      throw new PlatformError('PERMISSION_DENIED', 'The audit trail is for admins.');
    return ctx.loaders.auditBySettlement.load(settlement.id);
  }
}

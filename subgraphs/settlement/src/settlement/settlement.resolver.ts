import {
  Arg,
  Authorized,
  Ctx,
  FieldResolver,
  ID,
  Int,
  Mutation,
  Query,
  Resolver,
  Root,
} from 'type-graphql';
import { ADMIN_ROLES } from '../auth/principal.js';
import { SettlementAuditEntry } from '../audit/settlement-audit.entity.js';
import { Campaign } from '../campaign/campaign.entity.js';
import type { SettlementContext } from '../context.js';
import { AdvertiserInvoice } from '../invoice/advertiser-invoice.entity.js';
import { Partner } from '../partner/partner.entity.js';
import { PartnerPayout } from '../payout/partner-payout.entity.js';
import { ReverseIssuance } from '../reverse-issuance/reverse-issuance.entity.js';
import {
  ChangeSettlementStatusInput,
  ChangeSettlementTypeInput,
  CompleteSettlementInput,
  ConfirmPartnerInvoiceInput,
  SettlementActionInput,
  SettlementFilter,
} from './settlement.inputs.js';
import { SettlementPage } from './settlement-page.js';
import { Settlement } from './settlement.entity.js';

const action = () => ({ nullable: true }) as const;

/** The admin operations: one per path of spec section 4.1, named after it (DESIGN.md 5). */
@Resolver(() => Settlement)
export class SettlementResolver {
  @Authorized(ADMIN_ROLES)
  @Query(() => SettlementPage, { description: 'GET /api/admin/settlements' })
  async settlements(
    @Ctx() ctx: SettlementContext,
    @Arg('filter', () => SettlementFilter, { nullable: true }) filter?: SettlementFilter,
    @Arg('cursor', () => String, { nullable: true }) cursor?: string,
    @Arg('limit', () => Int, { nullable: true, description: '1 to 100, default 20' })
    limit?: number,
  ) {
    return ctx.services.queries.list(ctx.em, await ctx.principal(), filter, cursor, limit);
  }

  @Authorized(ADMIN_ROLES)
  @Query(() => Settlement, { description: 'GET /api/admin/settlements/:id' })
  async settlement(@Arg('id', () => ID) id: string, @Ctx() ctx: SettlementContext) {
    return ctx.services.settlements.getVisible(ctx.em, await ctx.principal(), id);
  }

  @Authorized(ADMIN_ROLES)
  @Query(() => ReverseIssuance, {
    description:
      'GET /api/admin/settlements/:id/reverse-issuance-status: asks the tax-invoice provider ' +
      'live and stores what it learns (status, tax invoice, failure); 503 PROVIDER_UNAVAILABLE ' +
      'when the provider does not answer',
  })
  async settlementReverseIssuanceStatus(
    @Arg('id', () => ID) id: string,
    @Ctx() ctx: SettlementContext,
  ) {
    const principal = await ctx.principal();
    await ctx.services.settlements.getVisible(ctx.em, principal, id);
    return ctx.services.taxInvoices.liveReverseStatus(ctx.em, id, principal);
  }

  @Authorized(ADMIN_ROLES)
  @Mutation(() => Settlement, { description: 'PATCH /api/admin/settlements/:id/status' })
  async changeSettlementStatus(
    @Arg('id', () => ID) id: string,
    @Arg('input', () => ChangeSettlementStatusInput) input: ChangeSettlementStatusInput,
    @Ctx() ctx: SettlementContext,
  ) {
    const { workflow, taxInvoices } = ctx.services;
    const settlement = await workflow.statusChange.changeStatus(
      ctx.em,
      await ctx.principal(),
      id,
      input,
    );
    // As the partner's request: the approval URL in the answer when the provider is quick.
    if (input.status !== 'AWAITING_ADVERTISER_PAYMENT') return settlement;
    await taxInvoices.requestReverseInline(ctx.em, settlement.id);
    return ctx.em.findOneOrFail(Settlement, { id: settlement.id }, { refresh: true });
  }

  @Authorized(ADMIN_ROLES)
  @Mutation(() => Settlement, { description: 'PATCH /api/admin/settlements/:id/type' })
  async changeSettlementType(
    @Arg('id', () => ID) id: string,
    @Arg('input', () => ChangeSettlementTypeInput) input: ChangeSettlementTypeInput,
    @Ctx() ctx: SettlementContext,
  ) {
    return ctx.services.workflow.typeChange.changeType(ctx.em, await ctx.principal(), id, input);
  }

  @Authorized(ADMIN_ROLES)
  @Mutation(() => Settlement, { description: 'POST /api/admin/settlements/:id/start-payout' })
  async startSettlementPayout(
    @Arg('id', () => ID) id: string,
    @Ctx() ctx: SettlementContext,
    @Arg('input', () => SettlementActionInput, action()) input?: SettlementActionInput,
  ) {
    return ctx.services.workflow.platformFlow.startPayout(ctx.em, await ctx.principal(), id, input);
  }

  @Authorized(ADMIN_ROLES)
  @Mutation(() => Settlement, { description: 'POST /api/admin/settlements/:id/complete' })
  async completeSettlement(
    @Arg('id', () => ID) id: string,
    @Ctx() ctx: SettlementContext,
    @Arg('input', () => CompleteSettlementInput, action()) input?: CompleteSettlementInput,
  ) {
    return ctx.services.workflow.platformFlow.complete(ctx.em, await ctx.principal(), id, input);
  }

  @Authorized(ADMIN_ROLES)
  @Mutation(() => Settlement, { description: 'POST /api/admin/settlements/:id/retry-issuance' })
  async retrySettlementIssuance(
    @Arg('id', () => ID) id: string,
    @Ctx() ctx: SettlementContext,
    @Arg('input', () => SettlementActionInput, action()) input?: SettlementActionInput,
  ) {
    return ctx.services.workflow.platformFlow.retryIssuance(
      ctx.em,
      await ctx.principal(),
      id,
      input,
    );
  }

  @Authorized(ADMIN_ROLES)
  @Mutation(() => Settlement, { description: 'POST /api/admin/settlements/:id/invoice-issued' })
  async markSettlementInvoiceIssued(
    @Arg('id', () => ID) id: string,
    @Ctx() ctx: SettlementContext,
    @Arg('input', () => SettlementActionInput, action()) input?: SettlementActionInput,
  ) {
    return ctx.services.workflow.directFlow.markInvoiceIssued(
      ctx.em,
      await ctx.principal(),
      id,
      input,
    );
  }

  @Authorized(ADMIN_ROLES)
  @Mutation(() => Settlement, { description: 'POST /api/admin/settlements/:id/invoice-paid' })
  async markSettlementInvoicePaid(
    @Arg('id', () => ID) id: string,
    @Ctx() ctx: SettlementContext,
    @Arg('input', () => SettlementActionInput, action()) input?: SettlementActionInput,
  ) {
    return ctx.services.workflow.directFlow.markInvoicePaid(
      ctx.em,
      await ctx.principal(),
      id,
      input,
    );
  }

  @Authorized(ADMIN_ROLES)
  @Mutation(() => Settlement, { description: 'POST /api/admin/settlements/:id/cancel' })
  async cancelSettlement(
    @Arg('id', () => ID) id: string,
    @Ctx() ctx: SettlementContext,
    @Arg('input', () => SettlementActionInput, action()) input?: SettlementActionInput,
  ) {
    return ctx.services.workflow.cancellation.cancel(ctx.em, await ctx.principal(), id, input);
  }

  @Authorized(ADMIN_ROLES)
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
    return ctx.services.workflow.platformFlow.confirmPartnerInvoiceReceived(
      ctx.em,
      await ctx.principal(),
      id,
      input,
    );
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

  @Authorized(ADMIN_ROLES)
  @FieldResolver(() => [SettlementAuditEntry], {
    description: 'Every move, type change and money-relevant edit, oldest first (admins only)',
  })
  auditTrail(@Root() settlement: Settlement, @Ctx() ctx: SettlementContext) {
    return ctx.loaders.auditBySettlement.load(settlement.id);
  }
}

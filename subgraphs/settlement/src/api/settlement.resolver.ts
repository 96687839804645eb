import { Authorized, Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import { operation, operations } from './operations.js';
import { ADMIN_ROLES } from '../kernel/principal.js';
import { SettlementAuditEntry } from '../journal/audit/settlement-audit.entity.js';
import { Campaign } from '../domain/campaign/campaign.entity.js';
import type { SettlementContext } from './context.js';
import { ReadResolver } from './read-resolver.js';
import {
  prefetchRelations,
  SETTLEMENT_RELATIONS,
  settlementDetail,
  shown,
  verifiedPrincipal,
  type SettlementRefs,
} from './settlement-relations.js';
import { AdvertiserInvoice } from '../domain/invoice/advertiser-invoice.entity.js';
import { Partner } from '../domain/partner/partner.entity.js';
import { PartnerPayout } from '../domain/payout/partner-payout.entity.js';
import { ReverseIssuance } from '../domain/reverse-issuance/reverse-issuance.entity.js';
import {
  ChangeSettlementStatusInput,
  ChangeSettlementTypeInput,
  CompleteSettlementInput,
  ConfirmPartnerInvoiceInput,
  SettlementActionInput,
  SettlementFilter,
} from '../domain/settlement/settlement.inputs.js';
import {
  principalSeeing,
  settlementActions,
  withInlineReverseIssuance,
} from './settlement-actions.js';
import { SettlementPage } from '../domain/settlement/settlement-page.js';
import { Settlement } from '../domain/settlement/settlement.entity.js';

/** The admin actions that run one trigger (spec 4.1): `(id, input?)` → the settlement. */
export const SettlementActionResolver = settlementActions(ADMIN_ROLES, '/api/admin/settlements', {
  startSettlementPayout: ['start-payout', (w) => w.platformFlow.startPayout],
  completeSettlement: [
    'complete',
    (w) => w.platformFlow.complete,
    { input: CompleteSettlementInput },
  ],
  retrySettlementIssuance: ['retry-issuance', (w) => w.platformFlow.retryIssuance],
  markSettlementInvoiceIssued: ['invoice-issued', (w) => w.directFlow.markInvoiceIssued],
  markSettlementInvoicePaid: ['invoice-paid', (w) => w.directFlow.markInvoicePaid],
  cancelSettlement: ['cancel', (w) => w.cancellation.cancel],
});

const reads = ReadResolver(Settlement, SettlementPage, SettlementFilter, {
  roles: ADMIN_ROLES,
  list: ['settlements', 'GET /api/admin/settlements', (s) => s.queries],
  get: ['settlement', 'GET /api/admin/settlements/:id', (s) => s.queries],
  related: prefetchRelations,
  detail: settlementDetail,
});

/** The other admin operations: one per path of spec section 4.1, named after it (DESIGN.md 5). */
@Resolver(() => Settlement)
export class SettlementResolver extends operations(
  reads,
  { roles: ADMIN_ROLES, returns: () => Settlement },
  {
    settlementReverseIssuanceStatus: {
      query: true,
      returns: () => ReverseIssuance,
      description:
        'GET /api/admin/settlements/:id/reverse-issuance-status: asks the tax-invoice provider ' +
        'live and stores what it learns (status, tax invoice, failure); 503 PROVIDER_UNAVAILABLE ' +
        'when the provider does not answer',
      id: true,
      run: async (ctx, id) =>
        ctx.services.taxInvoices.liveReverseStatus(ctx.em, id, await principalSeeing(ctx, id)),
    },
    changeSettlementStatus: operation({
      description: 'PATCH /api/admin/settlements/:id/status',
      id: true,
      arg: ['input', () => ChangeSettlementStatusInput],
      run: async (ctx, id, input) => {
        const principal = await ctx.principal();
        const statusChange = ctx.services.workflow.statusChange;
        const settlement = await statusChange.changeStatus(ctx.em, principal, id, input);
        // As the partner's request: the approval URL in the answer when the provider is quick.
        if (input.status !== 'AWAITING_ADVERTISER_PAYMENT') return settlement;
        return withInlineReverseIssuance(ctx, settlement);
      },
    }),
    retryReverseIssuance: operation({
      description:
        'GraphQL only: starts a FAILURE or CANCELLED reverse issuance again (the next issuance ' +
        'key, a new approval URL and e-mail; the provider decides again)',
      id: true,
      arg: ['input', () => SettlementActionInput, { nullable: true }],
      run: async (ctx, id, input?: SettlementActionInput) => {
        const principal = await ctx.principal();
        const settlement = await ctx.services.workflow.reverseRetry.retry(
          ctx.em,
          principal,
          id,
          input,
        );
        return withInlineReverseIssuance(ctx, settlement);
      },
    }),
    changeSettlementType: operation({
      description: 'PATCH /api/admin/settlements/:id/type',
      id: true,
      arg: ['input', () => ChangeSettlementTypeInput],
      run: async (ctx, id, input) =>
        ctx.services.workflow.typeChange.changeType(ctx.em, await ctx.principal(), id, input),
    }),
    confirmPartnerInvoiceReceived: operation({
      description:
        "Records that the partner's tax invoice was received (partnerInvoiceReceivedAt; DESIGN S4). " +
        'GraphQL only: the specification lists no REST path for it.',
      id: true,
      arg: ['input', () => ConfirmPartnerInvoiceInput, { nullable: true }],
      run: async (ctx, id, input?: ConfirmPartnerInvoiceInput) =>
        ctx.services.workflow.platformFlow.confirmPartnerInvoiceReceived(
          ctx.em,
          await ctx.principal(),
          id,
          input,
        ),
    }),
  },
) {
  // Not async: a relation a page prefetched is answered at once (settlement-relations.ts).
  @FieldResolver(() => Partner)
  partner(@Root() settlement: SettlementRefs, @Ctx() ctx: SettlementContext) {
    return shown(SETTLEMENT_RELATIONS.partner(ctx.loaders, settlement));
  }

  @FieldResolver(() => Campaign)
  campaign(@Root() settlement: SettlementRefs, @Ctx() ctx: SettlementContext) {
    return shown(SETTLEMENT_RELATIONS.campaign(ctx.loaders, settlement));
  }

  @FieldResolver(() => AdvertiserInvoice, {
    nullable: true,
    description: "The advertiser invoice; admins only (null for a partner's token)",
  })
  advertiserInvoice(@Root() settlement: SettlementRefs, @Ctx() ctx: SettlementContext) {
    // Without an invoice the answer is null whoever asks: no principal to wait for.
    if (settlement.advertiserInvoiceId === null) return null;
    const principal = verifiedPrincipal(ctx);
    if (principal) {
      return shown(SETTLEMENT_RELATIONS.advertiserInvoice(ctx.loaders, settlement, principal));
    }
    return ctx
      .principal()
      .then((principal) =>
        shown(SETTLEMENT_RELATIONS.advertiserInvoice(ctx.loaders, settlement, principal)),
      );
  }

  @FieldResolver(() => PartnerPayout, { nullable: true })
  partnerPayout(@Root() settlement: SettlementRefs, @Ctx() ctx: SettlementContext) {
    return shown(SETTLEMENT_RELATIONS.partnerPayout(ctx.loaders, settlement));
  }

  @FieldResolver(() => ReverseIssuance, {
    nullable: true,
    description: 'The reverse issuance of a business partner’s tax invoice, once requested',
  })
  reverseIssuance(@Root() settlement: SettlementRefs, @Ctx() ctx: SettlementContext) {
    return shown(SETTLEMENT_RELATIONS.reverseIssuance(ctx.loaders, settlement));
  }

  @Authorized(ADMIN_ROLES)
  @FieldResolver(() => [SettlementAuditEntry], {
    description: 'Every move, type change and money-relevant edit, oldest first (admins only)',
  })
  auditTrail(@Root() settlement: SettlementRefs, @Ctx() ctx: SettlementContext) {
    return ctx.loaders.auditBySettlement.load(settlement.id);
  }
}

import { Resolver } from 'type-graphql';
import { operations } from './operations.js';
import { ReadResolver } from './read-resolver.js';
import { prefetchRelations, settlementDetail } from './settlement-relations.js';
import {
  principalSeeing,
  settlementActions,
  withInlineReverseIssuance,
} from './settlement-actions.js';
import { PartnerSettlementFilter } from '../domain/settlement/settlement.inputs.js';
import {
  PartnerSettlementSummary,
  ReverseIssuanceGrant,
  SettlementPage,
} from '../domain/settlement/settlement-page.js';
import { Settlement } from '../domain/settlement/settlement.entity.js';

/**
 * The partner's actions (spec 4.2): on a DIRECT_INVOICE settlement the admin's invoice marks, and
 * its request, whose answer carries a business partner's approval URL when the provider is quick.
 */
export const PartnerSettlementActionResolver = settlementActions(
  ['PARTNER'],
  '/api/partner/settlements',
  {
    partnerMarkInvoiceIssued: ['invoice-issued', (w) => w.directFlow.markInvoiceIssued],
    partnerMarkInvoicePaid: ['invoice-paid', (w) => w.directFlow.markInvoicePaid],
    requestSettlement: ['request', (w) => w.partnerRequest.request, { inline: true }],
  },
);

const reads = ReadResolver(Settlement, SettlementPage, PartnerSettlementFilter, {
  roles: ['PARTNER'],
  list: ['partnerSettlements', 'GET /api/partner/settlements', (s) => s.queries],
  get: ['partnerSettlement', 'GET /api/partner/settlements/:id', (s) => s.queries],
  related: prefetchRelations,
  detail: settlementDetail,
});

/**
 * The partner operations: one per path of spec section 4.2, for the partner's own settlements
 * (the scope of a PARTNER token). An admin token is 403: it has no partner to serve.
 */
@Resolver()
export class PartnerSettlementResolver extends operations(
  reads,
  { roles: ['PARTNER'] },
  {
    partnerSettlementSummary: {
      query: true,
      returns: () => PartnerSettlementSummary,
      description: 'GET /api/partner/settlements/summary',
      run: async (ctx) => ctx.services.queries.summary(ctx.em, await ctx.principal()),
    },
    reverseIssuanceGrantUrl: {
      query: true,
      returns: () => ReverseIssuanceGrant,
      description:
        'GET /api/partner/settlements/:id/reverse-issuance-grant-url: the approval URL of the ' +
        'pending reverse issuance; after a FAILURE or a cancellation it starts a new one first',
      id: true,
      run: async (ctx, id) => {
        const principal = await principalSeeing(ctx, id);
        // After a FAILURE or a cancellation the link starts a new reverse issuance (issue 23 item 3).
        const { reverseRetry } = ctx.services.workflow;
        if (await reverseRetry.needsRetry(ctx.em, id)) {
          await withInlineReverseIssuance(ctx, await reverseRetry.retry(ctx.em, principal, id));
        }
        return ctx.services.taxInvoices.grantUrl(ctx.em.fork(), id, principal);
      },
    },
  },
) {}

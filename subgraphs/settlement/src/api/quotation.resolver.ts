import { Ctx, FieldResolver, ID, Resolver, Root } from 'type-graphql';
import { operation, operations } from './operations.js';
import { ADMIN_ROLES } from '../kernel/principal.js';
import { Campaign } from '../domain/campaign/campaign.entity.js';
import type { SettlementContext } from './context.js';
import { ReadResolver } from './read-resolver.js';
import {
  ChangeQuotationStatusInput,
  QuotationFile,
  QuotationFilter,
  QuotationInput,
  QuotationPage,
} from '../domain/quotation/quotation.inputs.js';
import { Quotation, QuotationLine } from '../domain/quotation/quotation.entity.js';

const reads = ReadResolver(Quotation, QuotationPage, QuotationFilter, {
  roles: ADMIN_ROLES,
  list: ['quotations', 'GET /api/admin/quotation', (s) => s.quotations],
  get: ['quotation', 'GET /api/admin/quotation/:quoId', (s) => s.quotations],
});

/** Spec 4.5: one query or mutation per path, named as DESIGN.md 5 fixes them. */
@Resolver(() => Quotation)
export class QuotationResolver extends operations(
  reads,
  { roles: ADMIN_ROLES, returns: () => Quotation },
  {
    createQuotation: operation({
      description: 'POST /api/admin/quotation: saved as DRAFT',
      arg: ['input', () => QuotationInput],
      run: async (ctx, _id, input) =>
        ctx.services.quotationChanges.create(ctx.em, await ctx.principal(), input),
    }),
    updateQuotation: operation({
      description: 'PUT /api/admin/quotation/:quoId (DRAFT only)',
      id: true,
      arg: ['input', () => QuotationInput],
      run: async (ctx, id, input) =>
        ctx.services.quotationChanges.update(ctx.em, await ctx.principal(), id, input),
    }),
    cancelQuotation: {
      description: 'DELETE /api/admin/quotation/:quoId: soft, the quotation becomes CANCELLED',
      id: true,
      run: async (ctx, id) =>
        ctx.services.quotationChanges.cancel(ctx.em, await ctx.principal(), id),
    },
    changeQuotationStatus: operation({
      description: 'PATCH /api/admin/quotation/:quoId/status',
      id: true,
      arg: ['input', () => ChangeQuotationStatusInput],
      run: async (ctx, id, input) =>
        ctx.services.quotationChanges.changeStatus(ctx.em, await ctx.principal(), id, input.status),
    }),
    executeQuotation: {
      description: 'POST /api/admin/quotation/:quoId/execute: one campaign per line, once',
      id: true,
      run: async (ctx, id) =>
        ctx.services.quotationExecution.execute(ctx.em, await ctx.principal(), id),
    },
    quotationWorkbook: {
      query: true,
      returns: () => QuotationFile,
      description: 'GET /api/admin/quotation/:quoId/download (XLSX)',
      id: true,
      run: async (ctx, id) =>
        ctx.services.quotationFiles.download(ctx.em, await ctx.principal(), id),
    },
    generateQuotationWorkbook: operation({
      query: true,
      returns: () => QuotationFile,
      description: 'POST /api/admin/quotation/generate: the XLSX of a body, saved nowhere',
      arg: ['input', () => QuotationInput],
      run: async (ctx, _id, input) =>
        ctx.services.quotationFiles.generate(ctx.em, await ctx.principal(), input),
    }),
  },
) {
  @FieldResolver(() => [QuotationLine], { description: 'In order' })
  lines(@Root() quotation: Quotation, @Ctx() ctx: SettlementContext) {
    return ctx.loaders.quotationLines.load(quotation.id);
  }

  @FieldResolver(() => [ID], { description: 'The campaigns its execution created, in line order' })
  async campaignIds(@Root() quotation: Quotation, @Ctx() ctx: SettlementContext) {
    const lines = await ctx.loaders.quotationLines.load(quotation.id);
    return lines.flatMap((line) => (line.campaignId ? [line.campaignId] : []));
  }

  @FieldResolver(() => [Campaign], { description: 'The campaigns of campaignIds' })
  async campaigns(@Root() quotation: Quotation, @Ctx() ctx: SettlementContext) {
    const ids = await this.campaignIds(quotation, ctx);
    const found = await ctx.loaders.campaign.loadMany(ids);
    return found.filter((campaign): campaign is Campaign => campaign instanceof Campaign);
  }
}

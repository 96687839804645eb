import {
  Arg,
  Authorized,
  Ctx,
  FieldResolver,
  ID,
  Mutation,
  Query,
  Resolver,
  Root,
} from 'type-graphql';
import { IdArg } from './id-arg.js';
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

/** Spec 4.5: one query or mutation per path, named as DESIGN.md 5 fixes them. */
@Resolver(() => Quotation)
export class QuotationResolver extends ReadResolver(Quotation, QuotationPage, QuotationFilter, {
  roles: ADMIN_ROLES,
  list: ['quotations', 'GET /api/admin/quotation', (s) => s.quotations],
  get: ['quotation', 'GET /api/admin/quotation/:quoId', (s) => s.quotations],
}) {
  @Authorized(ADMIN_ROLES)
  @Mutation(() => Quotation, { description: 'POST /api/admin/quotation: saved as DRAFT' })
  async createQuotation(
    @Arg('input', () => QuotationInput) input: QuotationInput,
    @Ctx() ctx: SettlementContext,
  ) {
    return ctx.services.quotationChanges.create(ctx.em, await ctx.principal(), input);
  }

  @Authorized(ADMIN_ROLES)
  @Mutation(() => Quotation, { description: 'PUT /api/admin/quotation/:quoId (DRAFT only)' })
  async updateQuotation(
    @IdArg() id: string,
    @Arg('input', () => QuotationInput) input: QuotationInput,
    @Ctx() ctx: SettlementContext,
  ) {
    return ctx.services.quotationChanges.update(ctx.em, await ctx.principal(), id, input);
  }

  @Authorized(ADMIN_ROLES)
  @Mutation(() => Quotation, {
    description: 'DELETE /api/admin/quotation/:quoId: soft, the quotation becomes CANCELLED',
  })
  async cancelQuotation(@IdArg() id: string, @Ctx() ctx: SettlementContext) {
    return ctx.services.quotationChanges.cancel(ctx.em, await ctx.principal(), id);
  }

  @Authorized(ADMIN_ROLES)
  @Mutation(() => Quotation, { description: 'PATCH /api/admin/quotation/:quoId/status' })
  async changeQuotationStatus(
    @IdArg() id: string,
    @Arg('input', () => ChangeQuotationStatusInput) input: ChangeQuotationStatusInput,
    @Ctx() ctx: SettlementContext,
  ) {
    const principal = await ctx.principal();
    return ctx.services.quotationChanges.changeStatus(ctx.em, principal, id, input.status);
  }

  @Authorized(ADMIN_ROLES)
  @Mutation(() => Quotation, {
    description: 'POST /api/admin/quotation/:quoId/execute: one campaign per line, once',
  })
  async executeQuotation(@IdArg() id: string, @Ctx() ctx: SettlementContext) {
    return ctx.services.quotationExecution.execute(ctx.em, await ctx.principal(), id);
  }

  @Authorized(ADMIN_ROLES)
  @Query(() => QuotationFile, { description: 'GET /api/admin/quotation/:quoId/download (XLSX)' })
  async quotationWorkbook(@IdArg() id: string, @Ctx() ctx: SettlementContext) {
    return ctx.services.quotationFiles.download(ctx.em, await ctx.principal(), id);
  }

  @Authorized(ADMIN_ROLES)
  @Query(() => QuotationFile, {
    description: 'POST /api/admin/quotation/generate: the XLSX of a body, saved nowhere',
  })
  async generateQuotationWorkbook(
    @Arg('input', () => QuotationInput) input: QuotationInput,
    @Ctx() ctx: SettlementContext,
  ) {
    return ctx.services.quotationFiles.generate(ctx.em, await ctx.principal(), input);
  }

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

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
import { ChangeAuditEntry } from '../audit/change-audit.entity.js';
import { auditKey } from '../audit/change-audit.loader.js';
import { ADMIN_ROLES } from '../auth/principal.js';
import type { SettlementContext } from '../context.js';
import { Agency } from './agency.entity.js';
import {
  AgencyFilter,
  AgencyPage,
  AgencySettlementAccount,
  CreateAgencyInput,
  UpdateAgencyInput,
} from './agency.inputs.js';

/** Spec 4.4: one query or mutation per path, named as DESIGN.md 5 fixes them. */
@Resolver(() => Agency)
export class AgencyResolver {
  @Authorized(ADMIN_ROLES)
  @Query(() => AgencyPage, { description: 'GET /api/admin/agencies (inactive ones included)' })
  async agencies(
    @Ctx() ctx: SettlementContext,
    @Arg('filter', () => AgencyFilter, { nullable: true }) filter?: AgencyFilter,
    @Arg('cursor', () => String, { nullable: true }) cursor?: string,
    @Arg('limit', () => Int, { nullable: true, description: '1 to 100, default 20' })
    limit?: number,
  ) {
    return ctx.services.agencies.list(ctx.em, await ctx.principal(), filter, cursor, limit);
  }

  @Authorized(ADMIN_ROLES)
  @Query(() => Agency, { description: 'GET /api/admin/agencies/default' })
  async defaultAgency(@Ctx() ctx: SettlementContext) {
    return ctx.services.agencies.getDefault(ctx.em, await ctx.principal());
  }

  @Authorized(ADMIN_ROLES)
  @Query(() => Agency, { description: 'GET /api/admin/agencies/:id' })
  async agency(@Arg('id', () => ID) id: string, @Ctx() ctx: SettlementContext) {
    return ctx.services.agencies.get(ctx.em, await ctx.principal(), id);
  }

  @Authorized(ADMIN_ROLES)
  @Query(() => Agency, { description: 'GET /api/admin/agencies/code/:code (ignoring case)' })
  async agencyByCode(@Arg('code', () => String) code: string, @Ctx() ctx: SettlementContext) {
    return ctx.services.agencies.getByCode(ctx.em, await ctx.principal(), code);
  }

  @Authorized(ADMIN_ROLES)
  @Query(() => AgencySettlementAccount, {
    description: 'GET /api/admin/agencies/:id/settlement-account',
  })
  async agencySettlementAccount(@Arg('id', () => ID) id: string, @Ctx() ctx: SettlementContext) {
    return ctx.services.agencies.settlementAccount(ctx.em, await ctx.principal(), id);
  }

  @Authorized('SUPER_ADMIN')
  @Mutation(() => Agency, { description: 'POST /api/admin/agencies (SUPER_ADMIN)' })
  async createAgency(
    @Arg('input', () => CreateAgencyInput) input: CreateAgencyInput,
    @Ctx() ctx: SettlementContext,
  ) {
    return ctx.services.agencyChanges.create(ctx.em, await ctx.principal(), input);
  }

  @Authorized(ADMIN_ROLES)
  @Mutation(() => Agency, { description: 'PUT /api/admin/agencies/:id' })
  async updateAgency(
    @Arg('id', () => ID) id: string,
    @Arg('input', () => UpdateAgencyInput) input: UpdateAgencyInput,
    @Ctx() ctx: SettlementContext,
  ) {
    return ctx.services.agencyChanges.update(ctx.em, await ctx.principal(), id, input);
  }

  @Authorized('SUPER_ADMIN')
  @Mutation(() => Agency, {
    description: 'DELETE /api/admin/agencies/:id (SUPER_ADMIN): soft, isActive becomes false',
  })
  async deactivateAgency(@Arg('id', () => ID) id: string, @Ctx() ctx: SettlementContext) {
    return ctx.services.agencyChanges.deactivate(ctx.em, await ctx.principal(), id);
  }

  @Authorized(ADMIN_ROLES)
  @FieldResolver(() => [ChangeAuditEntry], {
    description: 'Every create, update and deactivation, oldest first (admins only)',
  })
  auditTrail(@Root() agency: Agency, @Ctx() ctx: SettlementContext) {
    return ctx.loaders.changeAudit.load(auditKey('AGENCY', agency.id));
  }
}

import { Arg, Authorized, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import { IdArg } from './id-arg.js';
import { ADMIN_ROLES } from '../kernel/principal.js';
import type { SettlementContext } from './context.js';
import { ReadResolver } from './read-resolver.js';
import { Agency } from '../domain/agency/agency.entity.js';
import {
  AgencyFilter,
  AgencyPage,
  AgencySettlementAccount,
  CreateAgencyInput,
  UpdateAgencyInput,
} from '../domain/agency/agency.inputs.js';

/** Spec 4.4: one query or mutation per path, named as DESIGN.md 5 fixes them. */
@Resolver(() => Agency)
export class AgencyResolver extends ReadResolver(Agency, AgencyPage, AgencyFilter, {
  roles: ADMIN_ROLES,
  list: ['agencies', 'GET /api/admin/agencies (inactive ones included)', (s) => s.agencies],
  get: ['agency', 'GET /api/admin/agencies/:id', (s) => s.agencies],
}) {
  @Authorized(ADMIN_ROLES)
  @Query(() => Agency, { description: 'GET /api/admin/agencies/default' })
  async defaultAgency(@Ctx() ctx: SettlementContext) {
    return ctx.services.agencies.getDefault(ctx.em, await ctx.principal());
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
  async agencySettlementAccount(@IdArg() id: string, @Ctx() ctx: SettlementContext) {
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
    @IdArg() id: string,
    @Arg('input', () => UpdateAgencyInput) input: UpdateAgencyInput,
    @Ctx() ctx: SettlementContext,
  ) {
    return ctx.services.agencyChanges.update(ctx.em, await ctx.principal(), id, input);
  }

  @Authorized('SUPER_ADMIN')
  @Mutation(() => Agency, {
    description: 'DELETE /api/admin/agencies/:id (SUPER_ADMIN): soft, isActive becomes false',
  })
  async deactivateAgency(@IdArg() id: string, @Ctx() ctx: SettlementContext) {
    return ctx.services.agencyChanges.deactivate(ctx.em, await ctx.principal(), id);
  }

  @Authorized('SUPER_ADMIN')
  @Mutation(() => Agency, {
    description:
      'GraphQL only (SUPER_ADMIN): a deactivated agency active again; new campaigns and ' +
      'quotations for it are allowed again',
  })
  async reactivateAgency(@IdArg() id: string, @Ctx() ctx: SettlementContext) {
    return ctx.services.agencyChanges.reactivate(ctx.em, await ctx.principal(), id);
  }
}

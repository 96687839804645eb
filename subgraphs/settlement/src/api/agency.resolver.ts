import { Resolver } from 'type-graphql';
import { ADMIN_ROLES } from '../kernel/principal.js';
import { ReadResolver } from './read-resolver.js';
import { operation, operations } from './operations.js';
import { Agency } from '../domain/agency/agency.entity.js';
import {
  AgencyFilter,
  AgencyPage,
  AgencySettlementAccount,
  CreateAgencyInput,
  UpdateAgencyInput,
} from '../domain/agency/agency.inputs.js';

const reads = ReadResolver(Agency, AgencyPage, AgencyFilter, {
  roles: ADMIN_ROLES,
  list: ['agencies', 'GET /api/admin/agencies (inactive ones included)', (s) => s.agencies],
  get: ['agency', 'GET /api/admin/agencies/:id', (s) => s.agencies],
});

/** Spec 4.4: one query or mutation per path, named as DESIGN.md 5 fixes them. */
@Resolver(() => Agency)
export class AgencyResolver extends operations(
  reads,
  { roles: ADMIN_ROLES, returns: () => Agency },
  {
    defaultAgency: {
      query: true,
      description: 'GET /api/admin/agencies/default',
      run: async (ctx) => ctx.services.agencies.getDefault(ctx.em, await ctx.principal()),
    },
    agencyByCode: operation({
      query: true,
      description: 'GET /api/admin/agencies/code/:code (ignoring case)',
      arg: ['code', () => String],
      run: async (ctx, _id, code: string) =>
        ctx.services.agencies.getByCode(ctx.em, await ctx.principal(), code),
    }),
    agencySettlementAccount: {
      query: true,
      returns: () => AgencySettlementAccount,
      description: 'GET /api/admin/agencies/:id/settlement-account',
      id: true,
      run: async (ctx, id) =>
        ctx.services.agencies.settlementAccount(ctx.em, await ctx.principal(), id),
    },
    createAgency: operation({
      roles: ['SUPER_ADMIN'],
      description: 'POST /api/admin/agencies (SUPER_ADMIN)',
      arg: ['input', () => CreateAgencyInput],
      run: async (ctx, _id, input) =>
        ctx.services.agencyChanges.create(ctx.em, await ctx.principal(), input),
    }),
    updateAgency: operation({
      description: 'PUT /api/admin/agencies/:id',
      id: true,
      arg: ['input', () => UpdateAgencyInput],
      run: async (ctx, id, input) =>
        ctx.services.agencyChanges.update(ctx.em, await ctx.principal(), id, input),
    }),
    deactivateAgency: {
      roles: ['SUPER_ADMIN'],
      description: 'DELETE /api/admin/agencies/:id (SUPER_ADMIN): soft, isActive becomes false',
      id: true,
      run: async (ctx, id) =>
        ctx.services.agencyChanges.deactivate(ctx.em, await ctx.principal(), id),
    },
    reactivateAgency: {
      roles: ['SUPER_ADMIN'],
      description:
        'GraphQL only (SUPER_ADMIN): a deactivated agency active again; new campaigns and ' +
        'quotations for it are allowed again',
      id: true,
      run: async (ctx, id) =>
        ctx.services.agencyChanges.reactivate(ctx.em, await ctx.principal(), id),
    },
  },
) {}

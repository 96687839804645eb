import { Authorized, Ctx, FieldResolver, Resolver, Root, type ClassType } from 'type-graphql';
import { Agency } from '../domain/agency/agency.entity.js';
import { ADMIN_ROLES } from '../kernel/principal.js';
import { Campaign } from '../domain/campaign/campaign.entity.js';
import type { SettlementContext } from './context.js';
import { Quotation } from '../domain/quotation/quotation.entity.js';
import type { AuditedEntity } from '../journal/audit/change-audit.js';
import { ChangeAuditEntry } from '../journal/audit/change-audit.entity.js';
import { auditKey } from './change-audit.loader.js';

/** The admins-only `auditTrail` field of an audited type: its change entries, oldest first. */
function auditTrailOf<T extends { id: string }>(
  type: ClassType<T>,
  entityType: AuditedEntity,
  description: string,
) {
  @Resolver(() => type)
  class AuditTrailResolver {
    @Authorized(ADMIN_ROLES)
    @FieldResolver(() => [ChangeAuditEntry], { description })
    auditTrail(@Root() row: T, @Ctx() ctx: SettlementContext) {
      return ctx.loaders.changeAudit.load(auditKey(entityType, row.id));
    }
  }
  return AuditTrailResolver;
}

/** One per AuditedEntity (schema.ts lists them with the domain resolvers). */
export const changeAuditResolvers = [
  auditTrailOf(Campaign, 'CAMPAIGN', 'Every updateCampaign, oldest first (admins only)'),
  auditTrailOf(
    Agency,
    'AGENCY',
    'Every create, update and deactivation, oldest first (admins only)',
  ),
  auditTrailOf(
    Quotation,
    'QUOTATION',
    'Create, updates and status moves, oldest first (admins only)',
  ),
] as const;

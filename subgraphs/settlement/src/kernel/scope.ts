import { PlatformError } from '@campaign/schema';
import type { Principal } from './principal.js';

/** What a principal may see of agency-owned data (spec section 5, DESIGN.md S9). */
export interface Scope {
  /** Restrict to this agency (null agencyId rows count as the default agency). */
  agencyId: string | null;
  /** Restrict to this partner's own data. */
  partnerId: string | null;
}

export function scopeOf(principal: Principal): Scope {
  // A lens account console's token sees nothing of settlement, whatever an operation admits.
  if (principal.role === 'TENANT')
    throw new PlatformError('PERMISSION_DENIED', 'A TENANT token has no access to settlement.');
  if (principal.role === 'PARTNER') return { agencyId: null, partnerId: principal.partnerId };
  return { agencyId: principal.agencyId, partnerId: null };
}

/** A query condition on a row with `agencyId` and `partnerId` (MikroORM filter syntax). */
export type ScopeCondition =
  | { agencyId: string }
  | { $or: [{ agencyId: string }, { agencyId: null }] }
  | { partnerId: string };

/** The rows of agency `agencyId`: a row whose agencyId is null belongs to the default agency. */
export function agencyCondition(agencyId: string, defaultAgencyId: string): ScopeCondition {
  return agencyId === defaultAgencyId ? { $or: [{ agencyId }, { agencyId: null }] } : { agencyId };
}

/**
 * The conditions that keep a query inside `scope`; none for a super admin. The default agency is
 * read only for an agency's scope (`defaultAgencyId` is asked then, not before): a super admin's
 * or a partner's list makes no read for it (issue 27).
 */
export async function scopeConditions(
  scope: Scope,
  defaultAgencyId: () => Promise<string>,
): Promise<ScopeCondition[]> {
  const conditions: ScopeCondition[] = [];
  if (scope.agencyId !== null)
    conditions.push(agencyCondition(scope.agencyId, await defaultAgencyId()));
  if (scope.partnerId !== null) conditions.push({ partnerId: scope.partnerId });
  return conditions;
}

/** Whether agency `agencyId` (null: the default agency) is inside the scope. */
export function agencyInScope(
  scope: Scope,
  defaultAgencyId: string,
  agencyId: string | null,
): boolean {
  return scope.agencyId === null || (agencyId ?? defaultAgencyId) === scope.agencyId;
}

/** The same rule for one row already read. */
export function inScope(
  scope: Scope,
  defaultAgencyId: string,
  row: { agencyId: string | null; partnerId: string },
): boolean {
  if (!agencyInScope(scope, defaultAgencyId, row.agencyId)) return false;
  if (scope.partnerId !== null && row.partnerId !== scope.partnerId) return false;
  return true;
}

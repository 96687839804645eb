import type { Principal } from './principal.js';

/** What a principal may see of agency-owned data (spec section 5, DESIGN.md S9). */
export interface Scope {
  /** Restrict to this agency (null agencyId rows count as the default agency). */
  agencyId: string | null;
  /** Restrict to this partner's own data. */
  partnerId: string | null;
}

export function scopeOf(principal: Principal): Scope {
  if (principal.role === 'PARTNER') return { agencyId: null, partnerId: principal.partnerId };
  return { agencyId: principal.agencyId, partnerId: null };
}

/** SQL condition for a row with `agency_id` and `partner_id` columns; params appended in order. */
export function scopeCondition(
  scope: Scope,
  defaultAgencyId: string,
  alias = '',
): { sql: string; params: unknown[] } {
  const p = alias ? `${alias}.` : '';
  const parts: string[] = [];
  const params: unknown[] = [];
  if (scope.agencyId !== null) {
    parts.push(`coalesce(${p}agency_id, ?) = ?`);
    params.push(defaultAgencyId, scope.agencyId);
  }
  if (scope.partnerId !== null) {
    parts.push(`${p}partner_id = ?`);
    params.push(scope.partnerId);
  }
  return { sql: parts.length ? parts.join(' and ') : 'true', params };
}

export function inScope(
  scope: Scope,
  defaultAgencyId: string,
  row: { agencyId: string | null; partnerId: string },
): boolean {
  if (scope.agencyId !== null && (row.agencyId ?? defaultAgencyId) !== scope.agencyId) return false;
  if (scope.partnerId !== null && row.partnerId !== scope.partnerId) return false;
  return true;
}

import { PlatformError } from '@campaign/schema';
import type { Principal } from '@campaign/platform';

export {
  roles,
  signToken,
  verifyPrincipal as verifyAuthorization,
  type JwtSettings,
  type Principal,
  type Role,
} from '@campaign/platform';

export function requireAdmin(principal: Principal): void {
  if (principal.role === 'PARTNER')
    throw new PlatformError('PERMISSION_DENIED', 'This call needs an admin token.');
}

export function requireSuperAdmin(principal: Principal): void {
  if (principal.role !== 'SUPER_ADMIN') {
    throw new PlatformError('PERMISSION_DENIED', 'This call needs a SUPER_ADMIN token.');
  }
}

/** Partner paths serve a partner's own settlements; an admin token has no partner to serve. */
export function requirePartner(principal: Principal): string {
  if (principal.role !== 'PARTNER' || principal.partnerId === null)
    throw new PlatformError('PERMISSION_DENIED', 'This call needs a PARTNER token.');
  return principal.partnerId;
}

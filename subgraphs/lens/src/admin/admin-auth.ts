import { jwtVerify } from 'jose';
import { PlatformError } from '@campaign/schema';

export interface AdminSettings {
  secret: string;
  issuer: string;
}

export interface Admin {
  subject: string;
  role: StaffRole;
}

export type StaffRole = 'SUPER_ADMIN' | 'ADMIN' | 'PARTNER';

/**
 * Admin calls on the lens subgraph (reconciliation, key revocation) carry the platform's admin
 * JWT, the same one `auth:token` prints for the settlement interface, verified with
 * AUTH_JWT_SECRET; only role SUPER_ADMIN may use them (an ADMIN is scoped to one agency's
 * settlements and has no say over lens tenants).
 */
export function verifyAdmin(
  settings: AdminSettings,
  authorization: string | undefined,
): Promise<Admin> {
  return verifyStaff(settings, authorization, ['SUPER_ADMIN']);
}

/**
 * A platform token of one of `roles`. Stored observations are read this way (DESIGN.md L13):
 * admins through `account`, the consoles' partners through `Partner.account` only.
 */
export async function verifyStaff(
  settings: AdminSettings,
  authorization: string | undefined,
  roles: readonly StaffRole[],
): Promise<Admin> {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
  if (!match) {
    throw new PlatformError(
      'UNAUTHENTICATED',
      'Send a platform token as "Authorization: Bearer <JWT>" (npm run cli -- auth:token).',
    );
  }
  let payload;
  try {
    ({ payload } = await jwtVerify(match[1]!, new TextEncoder().encode(settings.secret), {
      issuer: settings.issuer,
      algorithms: ['HS256'],
    }));
  } catch {
    throw new PlatformError('UNAUTHENTICATED', 'The platform token is invalid or expired.');
  }
  const role = payload['role'] as StaffRole;
  if (!roles.includes(role)) {
    throw new PlatformError('PERMISSION_DENIED', `This call needs a ${roles.join(' or ')} token.`);
  }
  return { subject: payload.sub ?? 'unknown', role };
}

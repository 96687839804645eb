import { jwtVerify } from 'jose';
import { PlatformError } from '@campaign/schema';

export interface AdminSettings {
  secret: string;
  issuer: string;
}

export interface Admin {
  subject: string;
}

/**
 * Admin calls on the lens subgraph (reconciliation, key revocation) carry the platform's admin
 * JWT, the same one `auth:token` prints for the settlement interface, verified with
 * AUTH_JWT_SECRET; only role SUPER_ADMIN may use them (an ADMIN is scoped to one agency's
 * settlements and has no say over lens tenants).
 */
export async function verifyAdmin(
  settings: AdminSettings,
  authorization: string | undefined,
): Promise<Admin> {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
  if (!match) {
    throw new PlatformError(
      'UNAUTHENTICATED',
      'Send an admin token as "Authorization: Bearer <JWT>".',
    );
  }
  let payload;
  try {
    ({ payload } = await jwtVerify(match[1]!, new TextEncoder().encode(settings.secret), {
      issuer: settings.issuer,
      algorithms: ['HS256'],
    }));
  } catch {
    throw new PlatformError('UNAUTHENTICATED', 'The admin token is invalid or expired.');
  }
  if (payload['role'] !== 'SUPER_ADMIN') {
    throw new PlatformError('PERMISSION_DENIED', 'This call needs a SUPER_ADMIN token.');
  }
  return { subject: payload.sub ?? 'unknown' };
}

import { jwtVerify, SignJWT } from 'jose';
import { PlatformError } from '@campaign/schema';

export type Role = 'SUPER_ADMIN' | 'ADMIN' | 'PARTNER';
export const roles: readonly Role[] = ['SUPER_ADMIN', 'ADMIN', 'PARTNER'];

/** Who is calling: an admin (scoped to an agency, or all when agencyId is null) or a partner. */
export interface Principal {
  subject: string;
  role: Role;
  agencyId: string | null;
  partnerId: string | null;
}

export interface JwtSettings {
  secret: string;
  issuer: string;
}

const key = (secret: string) => new TextEncoder().encode(secret);

export async function signToken(
  settings: JwtSettings,
  principal: Principal,
  expiresIn = '12h',
): Promise<string> {
  return new SignJWT({
    role: principal.role,
    agencyId: principal.agencyId,
    partnerId: principal.partnerId,
  })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(principal.subject)
    .setIssuer(settings.issuer)
    .setIssuedAt()
    .setExpirationTime(expiresIn)
    .sign(key(settings.secret));
}

const idClaim = (value: unknown) =>
  value === null || value === undefined
    ? null
    : /^[1-9]\d{0,17}$/.test(String(value))
      ? String(value)
      : undefined;

export async function verifyAuthorization(
  settings: JwtSettings,
  authorization: string | undefined,
): Promise<Principal> {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
  if (!match)
    throw new PlatformError('UNAUTHENTICATED', 'Send a token as "Authorization: Bearer <JWT>".');
  let payload;
  try {
    ({ payload } = await jwtVerify(match[1]!, key(settings.secret), {
      issuer: settings.issuer,
      algorithms: ['HS256'],
    }));
  } catch {
    throw new PlatformError('UNAUTHENTICATED', 'The token is invalid or expired; get a new one.');
  }
  const role = payload['role'];
  const agencyId = idClaim(payload['agencyId']);
  const partnerId = idClaim(payload['partnerId']);
  if (!roles.includes(role as Role) || agencyId === undefined || partnerId === undefined) {
    throw new PlatformError('UNAUTHENTICATED', 'The token does not carry a valid role and scope.');
  }
  if (role === 'PARTNER' && partnerId === null) {
    throw new PlatformError('UNAUTHENTICATED', 'A PARTNER token must carry a partnerId claim.');
  }
  return { subject: payload.sub ?? 'unknown', role: role as Role, agencyId, partnerId };
}

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

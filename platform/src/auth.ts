import { jwtVerify, SignJWT } from 'jose';
import type { AuthChecker } from 'type-graphql';
import { PlatformError } from '@campaign/schema';

/**
 * The platform's one token: a JWT signed with AUTH_JWT_SECRET (HS256) for the admin and partner
 * consoles, verified the same way by both subgraphs (DESIGN.md S9, L13). API keys and tool tokens
 * are lens's own credentials and are not JWTs.
 */
export type Role = 'SUPER_ADMIN' | 'ADMIN' | 'PARTNER';
export const roles: readonly Role[] = ['SUPER_ADMIN', 'ADMIN', 'PARTNER'];
export const ADMIN_ROLES: readonly Role[] = ['SUPER_ADMIN', 'ADMIN'];

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

/** Database ids in claims: positive whole numbers of at most 18 digits. */
export const ID_CLAIM_PATTERN = /^[1-9]\d{0,17}$/;

const key = (secret: string) => new TextEncoder().encode(secret);

export function signToken(
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

/** The credential of `Authorization: Bearer <credential>`, or null. */
export function bearerToken(authorization: string | undefined): string | null {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
  return match ? match[1]! : null;
}

const idClaim = (value: unknown) =>
  value === null || value === undefined
    ? null
    : ID_CLAIM_PATTERN.test(String(value))
      ? String(value)
      : undefined;

/** The verified principal of a request; 401 UNAUTHENTICATED for anything else. */
export async function verifyPrincipal(
  settings: JwtSettings,
  authorization: string | undefined,
): Promise<Principal> {
  const token = bearerToken(authorization);
  if (!token)
    throw new PlatformError(
      'UNAUTHENTICATED',
      'Send a token as "Authorization: Bearer <JWT>" (npm run cli -- auth:token).',
    );
  let payload;
  try {
    ({ payload } = await jwtVerify(token, key(settings.secret), {
      issuer: settings.issuer,
      algorithms: ['HS256'],
    }));
  } catch {
    throw new PlatformError('UNAUTHENTICATED', 'The token is invalid or expired; get a new one.');
  }
  const role = payload['role'];
  const agencyId = idClaim(payload['agencyId']);
  const partnerId = idClaim(payload['partnerId']);
  if (!roles.includes(role as Role) || agencyId === undefined || partnerId === undefined)
    throw new PlatformError('UNAUTHENTICATED', 'The token does not carry a valid role and scope.');
  if (role === 'PARTNER' && partnerId === null)
    throw new PlatformError('UNAUTHENTICATED', 'A PARTNER token must carry a partnerId claim.');
  return { subject: payload.sub ?? 'unknown', role: role as Role, agencyId, partnerId };
}

/** 403 unless the principal has one of `allowed` (an empty list allows every role). */
export function requireRole(principal: Principal, allowed: readonly Role[]): Principal {
  if (allowed.length && !allowed.includes(principal.role))
    throw new PlatformError(
      'PERMISSION_DENIED',
      `This call needs a ${allowed.join(' or ')} token; this one is ${principal.role}.`,
    );
  return principal;
}

/**
 * type-graphql's checker for `@Authorized(...roles)`: the context verifies the token once per
 * request; a missing or bad token is 401, a token of another role 403 (catalogue errors, not
 * type-graphql's generic "Access denied").
 */
export function platformAuthChecker<
  C extends { principal: () => Promise<Principal> },
>(): AuthChecker<C, Role> {
  return async ({ context }, allowed) => {
    requireRole(await context.principal(), allowed);
    return true;
  };
}

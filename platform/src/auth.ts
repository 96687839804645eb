import { jwtVerify, SignJWT } from 'jose';
import { LRUCache } from 'lru-cache';
import type { AuthChecker } from 'type-graphql';
import { PlatformError } from '@campaign/schema';

/**
 * The platform's one token: a JWT signed with AUTH_JWT_SECRET (HS256) for the admin and partner
 * consoles, verified the same way by both subgraphs (DESIGN.md S9, L13). API keys and tool tokens
 * are lens's own credentials and are not JWTs.
 */
export type Role = 'SUPER_ADMIN' | 'ADMIN' | 'PARTNER' | 'TENANT';
export const roles: readonly Role[] = ['SUPER_ADMIN', 'ADMIN', 'PARTNER', 'TENANT'];
export const ADMIN_ROLES: readonly Role[] = ['SUPER_ADMIN', 'ADMIN'];

/**
 * Who is calling: an admin (scoped to an agency, or all when agencyId is null), a partner, or a
 * lens customer's account console (TENANT, bound to one lens tenant: `tenantId`; it has no role
 * in settlement, where every operation names the roles it admits).
 */
export interface Principal {
  subject: string;
  role: Role;
  agencyId: string | null;
  partnerId: string | null;
  /** The lens tenant of a TENANT token; absent (null) for every other role. */
  tenantId?: string | null;
}

/** Lens tenant ids (the `tenantId` claim of a TENANT token) are UUIDs. */
export const TENANT_CLAIM_PATTERN =
  /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

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
    ...(principal.tenantId ? { tenantId: principal.tenantId } : {}),
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

/**
 * Verified tokens, kept briefly so that a console's burst of calls verifies its token once (JWT
 * verification was 9 % of settlement's CPU, issue 14). The bound: an entry lives at most
 * VERIFIED_TOKEN_TTL_MS and never past the token's own `exp`, so an expired token is refused
 * exactly as without the cache; only valid tokens are kept, at most VERIFIED_TOKEN_LIMIT of them
 * (least recently used go first). Keyed by the secret and issuer too: a changed secret
 * verifies afresh.
 */
export const VERIFIED_TOKEN_TTL_MS = 60_000;
export const VERIFIED_TOKEN_LIMIT = 10_000;
const verified = new LRUCache<string, { principal: Principal; expiresAt: number }>({
  max: VERIFIED_TOKEN_LIMIT,
});

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
  const cacheKey = `${settings.issuer}\n${settings.secret}\n${token}`;
  const cached = verified.get(cacheKey);
  // The cache's own clock bounds the entry's age; the wall clock is checked against `exp` too.
  if (cached && cached.expiresAt > Date.now()) return cached.principal;
  const entry = await verifyToken(settings, token);
  const ttl = Math.min(VERIFIED_TOKEN_TTL_MS, entry.expiresAt - Date.now());
  if (ttl > 0) verified.set(cacheKey, entry, { ttl });
  return entry.principal;
}

async function verifyToken(
  settings: JwtSettings,
  token: string,
): Promise<{ principal: Principal; expiresAt: number }> {
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
  const tenantClaim = payload['tenantId'];
  const tenantId =
    typeof tenantClaim === 'string' && TENANT_CLAIM_PATTERN.test(tenantClaim) ? tenantClaim : null;
  if ((role === 'TENANT') !== (tenantId !== null))
    throw new PlatformError(
      'UNAUTHENTICATED',
      'A TENANT token must carry a tenantId claim (a lens tenant id), and only a TENANT token.',
    );
  // Frozen: the same object answers every request that sends this token.
  const principal = Object.freeze({
    subject: payload.sub ?? 'unknown',
    role: role as Role,
    agencyId,
    partnerId,
    ...(tenantId !== null ? { tenantId } : {}),
  });
  // A token without `exp` is kept no longer than the cache's own bound.
  const expiresAt = payload.exp === undefined ? Infinity : payload.exp * 1000;
  return { principal, expiresAt };
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

import { timingSafeEqual } from 'node:crypto';
import { z } from 'zod';

/**
 * The published development secrets: every service runs with them out of the box, so a new user
 * needs no set-up. Anyone can read them here, so a service warns when one is in use and refuses
 * to start with one when NODE_ENV=production (checked by parseEnv, once per service).
 */
export const DEVELOPMENT_SECRETS = {
  jwt: 'development-only-jwt-secret-change-me-32+',
  cursor: 'development-cursor-secret-change-me',
  subgraph: 'development-subgraph-secret-change-me',
  webhook: 'development-tax-invoice-webhook-secret',
  proxy: 'development-proxy-secret-change-me',
  oauthCookie: 'development-oauth-cookie-secret-change-me',
} as const;

const published = new Set<string>(Object.values(DEVELOPMENT_SECRETS));

/** The names of the configuration values that hold a published development secret. */
export function developmentSecretsIn(config: unknown): string[] {
  if (!config || typeof config !== 'object') return [];
  return Object.entries(config)
    .filter(([, value]) => typeof value === 'string' && published.has(value))
    .map(([name]) => name);
}

/** The platform's JWT signing key (admin and partner tokens), shared by both subgraphs. */
export const jwtSecretVar = z
  .string()
  .min(32, 'must be at least 32 characters')
  .default(DEVELOPMENT_SECRETS.jwt);
export const jwtIssuerVar = z.string().default('campaign-platform');

/** What the gateway sends and each subgraph checks (DESIGN.md L13). */
export const subgraphSecretVar = z
  .string()
  .min(16, 'must be at least 16 characters')
  .default(DEVELOPMENT_SECRETS.subgraph);

/**
 * What the REST adapter sends the gateway (`X-Proxy-Secret`) so that the gateway believes the
 * client address in its X-Forwarded-For; any other caller's X-Forwarded-For is overwritten.
 */
export const proxySecretVar = z
  .string()
  .min(16, 'must be at least 16 characters')
  .default(DEVELOPMENT_SECRETS.proxy);

/** Signs the OAuth authorization server's cookies (interaction, session); same on every replica. */
export const oauthCookieSecretVar = z
  .string()
  .min(32, 'must be at least 32 characters')
  .default(DEVELOPMENT_SECRETS.oauthCookie);

/**
 * Whether a header carries the expected secret, compared in constant time (no early exit that
 * would tell a caller how many leading characters it got right). A missing or repeated header
 * never matches.
 */
export function sameSecret(sent: string | string[] | undefined, expected: string): boolean {
  return secretCheck(expected)(sent);
}

/**
 * {@link sameSecret} against one expected secret, its bytes made once (a check run on every
 * request, issue 27: the subgraph secret).
 */
export function secretCheck(expected: string): (sent: string | string[] | undefined) => boolean {
  const b = Buffer.from(expected);
  return (sent) => {
    if (typeof sent !== 'string') return false;
    const a = Buffer.from(sent);
    return a.length === b.length && timingSafeEqual(a, b);
  };
}

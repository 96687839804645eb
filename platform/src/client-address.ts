import { isIP } from 'node:net';
import { z } from 'zod';
import { sameSecret } from './secrets.js';

/**
 * Client addresses across the platform's hops. Public limits (business verification, DESIGN.md
 * S12) are counted per client address, so the address must not be the caller's to choose:
 *
 * - the REST adapter takes it from X-Forwarded-For only when told a proxy is in front
 *   (REST_TRUST_PROXY), and sends it to the gateway with `X-Proxy-Secret`;
 * - the gateway believes a caller's X-Forwarded-For only with that secret; for anyone else (a
 *   console calling GraphQL directly) it overwrites the header with the address it sees;
 * - the subgraphs answer only the gateway (SUBGRAPH_SECRET) and read the one address it sends.
 */

/** The header the REST adapter vouches for its X-Forwarded-For with. */
export const PROXY_SECRET_HEADER = 'x-proxy-secret';

/**
 * The header the gateway proves itself with to the subgraphs (DESIGN.md L13). Defined here, with
 * the other hop header, so that tracing can tell internal calls without loading the GraphQL server.
 */
export const SUBGRAPH_SECRET_HEADER = 'x-subgraph-secret';

/**
 * The client address a gateway forwards: the REST adapter's X-Forwarded-For when the request
 * carries the proxy secret, otherwise the address of the connection itself.
 */
export function forwardedClientAddress(
  headers: Record<string, string | string[] | undefined>,
  connectionAddress: string,
  proxySecret: string,
): string {
  const forwarded = headers['x-forwarded-for'];
  if (typeof forwarded === 'string' && sameSecret(headers[PROXY_SECRET_HEADER], proxySecret)) {
    const first = forwarded.split(',')[0]?.trim();
    if (first) return first;
  }
  return connectionAddress;
}

/**
 * Fastify's `trustProxy` from the environment: `false` (default: the connection's address),
 * `true` (every hop is trusted: the left-most X-Forwarded-For address, right for one load
 * balancer that overwrites the header), or a comma-separated list of the proxies' addresses or
 * CIDR ranges (the right-most address that is not one of them: right when proxies append to the
 * header, since a client can write anything to its left).
 */
export const trustProxyVar = z
  .string()
  .default('false')
  .transform((value, ctx): boolean | string[] => {
    const text = value.trim();
    if (text === 'true' || text === 'false') return text === 'true';
    const list = text.split(',').map((entry) => entry.trim());
    const bad = list.find((entry) => isIP(entry.split('/')[0] ?? '') === 0);
    if (bad === undefined && list.length) return list;
    ctx.addIssue({
      code: 'custom',
      message: "must be true, false, or the proxies' addresses (CIDR ranges allowed)",
    });
    return z.NEVER;
  });

import type { FastifyRequest } from 'fastify';
import {
  forwardedClientAddress,
  IDEMPOTENCY_KEY_HEADER,
  LENS_INTERFACE_HEADER,
  REQUEST_ID_HEADER,
  vouchedLensInterface,
} from '@campaign/platform';
import type { GatewayConfig } from './config.js';

/**
 * Headers a subgraph needs from the client request, on either engine: the credential, the
 * request id, the client address, the lens interface (which credential kind lens accepts) and
 * the Idempotency-Key (the settlement subgraph keeps the keys; lens takes its own as an argument).
 */
export const FORWARDED_HEADERS = [
  'authorization',
  REQUEST_ID_HEADER,
  'x-forwarded-for',
  LENS_INTERFACE_HEADER,
  IDEMPOTENCY_KEY_HEADER,
] as const;

/** The values of FORWARDED_HEADERS one operation sends to every subgraph it reaches. */
export type ForwardedHeaders = { [H in (typeof FORWARDED_HEADERS)[number]]?: string };

const firstValue = (value: string | string[] | undefined) =>
  Array.isArray(value) ? value[0] : value;

/**
 * What the standalone gateway forwards for a request that came over HTTP, on either engine: the
 * client address and the lens interface only as vouched for by the proxy secret (a console
 * calling GraphQL directly chooses neither), the request id this gateway gave the request.
 */
export function subgraphHeadersOf(request: FastifyRequest, proxySecret: string): ForwardedHeaders {
  const headers = request.headers;
  return {
    authorization: headers.authorization,
    [REQUEST_ID_HEADER]: request.id,
    // A direct caller's own X-Forwarded-For is replaced: public limits count per address.
    'x-forwarded-for': forwardedClientAddress(headers, request.ip, proxySecret),
    // Only the REST adapter's MCP front may say a call came over the tool protocol.
    [LENS_INTERFACE_HEADER]: vouchedLensInterface(headers, proxySecret),
    [IDEMPOTENCY_KEY_HEADER]: firstValue(headers[IDEMPOTENCY_KEY_HEADER]),
  };
}

/** Each subgraph of the supergraph by name, at the URL the configuration gives it. */
export const subgraphUrlsOf = (config: GatewayConfig): Record<string, string> => ({
  lens: config.LENS_SUBGRAPH_URL,
  settlement: config.SETTLEMENT_SUBGRAPH_URL,
});

/** The gateway's readiness: every subgraph answers its own /readyz within 2 s. */
export async function subgraphsReady(subgraphUrls: Record<string, string>): Promise<void> {
  await Promise.all(
    Object.entries(subgraphUrls).map(async ([name, url]) => {
      const response = await fetch(new URL('/readyz', url), {
        signal: AbortSignal.timeout(2000),
      });
      if (!response.ok) throw new Error(`${name} subgraph is not ready`);
    }),
  );
}

import {
  IDEMPOTENCY_KEY_HEADER,
  LENS_INTERFACE_HEADER,
  REQUEST_ID_HEADER,
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

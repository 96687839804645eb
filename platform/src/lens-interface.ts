import { sameSecret } from './secrets.js';
import { PROXY_SECRET_HEADER } from './client-address.js';

/**
 * Which lens interface a call came through: REST (and GraphQL) take API keys, the tool protocol
 * (MCP) takes tool-protocol tokens (DESIGN.md L7). Lens decides which credential it accepts from
 * this, so the value must not be a client's to choose:
 *
 * - the REST adapter's MCP front sends `X-Lens-Interface: mcp`; its REST routes never send it
 *   (the gateway client builds its headers itself, so a client's copy is never passed on);
 * - the gateway passes the header on only from a caller that carries the proxy secret (the REST
 *   adapter); anyone else's (a console calling GraphQL directly) is dropped;
 * - lens answers only the gateway (SUBGRAPH_SECRET) and reads what it was sent.
 */
export const LENS_INTERFACE_HEADER = 'x-lens-interface';

export type LensInterface = 'rest' | 'mcp';

/** What the MCP front sends. */
export const MCP_INTERFACE: LensInterface = 'mcp';

/** The gateway's side: the interface to pass on to lens, or undefined (none: REST). */
export function vouchedLensInterface(
  headers: Record<string, string | string[] | undefined>,
  proxySecret: string,
): LensInterface | undefined {
  const value = headers[LENS_INTERFACE_HEADER];
  if (value !== MCP_INTERFACE) return undefined;
  return sameSecret(headers[PROXY_SECRET_HEADER], proxySecret) ? MCP_INTERFACE : undefined;
}

/** Lens's side: the interface the gateway vouched for; anything else is REST. */
export function lensInterfaceOf(value: string | string[] | undefined): LensInterface {
  return value === MCP_INTERFACE ? MCP_INTERFACE : 'rest';
}

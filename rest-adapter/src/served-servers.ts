import type { FastifyRequest } from 'fastify';

/**
 * The `servers` of a served OpenAPI document (issue 21). The committed documents name the
 * development address (`{base_url}`, default http://127.0.0.1:8080) so that they stay the same on
 * every machine; the served copy names the origin the reader fetched it from instead, so a tool
 * that imports it sends its requests to this adapter whatever its port, host or proxy. The origin
 * is fastify's `request.protocol` and `request.host`, which take X-Forwarded-Proto and
 * X-Forwarded-Host only when REST_TRUST_PROXY trusts the sender; a host that is not a plain
 * host[:port] gives the relative base instead (the document's own origin, RFC 3986 resolution).
 */

const HOST =
  /^(?:[A-Za-z0-9](?:[A-Za-z0-9.-]{0,251}[A-Za-z0-9])?|\[[0-9A-Fa-f:.]{2,45}\])(?::\d{1,5})?$/;

export function requestOrigin(request: FastifyRequest): string | null {
  const protocol = request.protocol;
  if (!HOST.test(request.host) || (protocol !== 'http' && protocol !== 'https')) return null;
  return `${protocol}://${request.host}`;
}

type Server = { url: string };

/** `document` with its servers' `{base_url}` replaced by the request's origin (or made relative). */
export function servedDocument<D extends { servers?: unknown }>(
  document: D,
  request: FastifyRequest,
): D {
  const origin = requestOrigin(request);
  const servers = ((document.servers ?? []) as Server[]).map(({ url }) => {
    const path = url.replace('{base_url}', '');
    return { url: origin ? `${origin}${path}` : path || '/' };
  });
  return { ...document, servers };
}

import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { context, propagation } from '@opentelemetry/api';
import { PROXY_SECRET_HEADER, SUBGRAPH_SECRET_HEADER } from './client-address.js';

/**
 * Calls between the platform's own services (issue 26, cost). The REST adapter's call to the
 * gateway carries the proxy secret and the gateway's fetches carry the subgraph secret: a request
 * with either goes to a service of ours, whose server span times it from the other side, and in
 * the gateway `gateway.fetch` already is the span of that fetch. Such a call gets no HTTP client
 * span of its own, only the W3C `traceparent` of the active span, so the next service's spans are
 * its children. Calls to outside systems (no such header) keep their client spans.
 */
const INTERNAL_HEADERS: ReadonlySet<string> = new Set([
  PROXY_SECRET_HEADER,
  SUBGRAPH_SECRET_HEADER,
]);

/** The part of undici's request (the `undici:request:create` message) read here. */
export interface UndiciRequest {
  /** `[name, value, name, value, …]` (undici 6 and 7), or raw `name: value\r\n` lines (5). */
  headers: unknown;
  addHeader?(name: string, value: string): unknown;
}

/** The request carries one of the headers only calls between our services carry. */
export function isInternalHop(request: UndiciRequest): boolean {
  const { headers } = request;
  if (Array.isArray(headers)) {
    for (let i = 0; i < headers.length; i += 2)
      if (INTERNAL_HEADERS.has(String(headers[i]).toLowerCase())) return true;
    return false;
  }
  if (typeof headers !== 'string') return false;
  return headers
    .split('\r\n')
    .some((line) => INTERNAL_HEADERS.has(line.slice(0, line.indexOf(':')).toLowerCase()));
}

const CREATED = 'undici:request:create';

function propagate(message: unknown): void {
  const { request } = message as { request: UndiciRequest };
  if (typeof request.addHeader !== 'function' || !isInternalHop(request)) return;
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  for (const name in carrier) request.addHeader(name, carrier[name]!);
}

/**
 * Adds the trace context to every internal call undici makes (node's fetch and the undici
 * package publish on the same channel); returns the unsubscription.
 */
export function propagateOnInternalHops(): () => void {
  subscribe(CREATED, propagate);
  return () => unsubscribe(CREATED, propagate);
}

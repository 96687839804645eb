import type { FastifyReply, FastifyRequest } from 'fastify';
import { findUnsafeText, unsafeTextMessage } from '@campaign/platform';
import { httpError, type HttpError } from './errors.js';

/**
 * Checks every REST request gets before its route runs (issue 9): repeated single-valued
 * headers, text the platform refuses, and the headers every answer carries.
 */

/**
 * Headers the adapter reads as exactly one value. Node joins a repeated Idempotency-Key into
 * "a, b" (and keeps only the first Authorization), so the operation ran under a key the client
 * never sent; which one it meant cannot be known, so the request is refused.
 */
const SINGLE_VALUED: readonly [name: string, spelled: string][] = [
  ['idempotency-key', 'Idempotency-Key'],
  ['authorization', 'Authorization'],
];

export function repeatedHeaderError(request: FastifyRequest): HttpError | null {
  // Counted on the raw header lines as they came (name, value, name, value …): Node's
  // `headersDistinct` would build an object of arrays of every header on each request (issue 27).
  const raw = request.raw.rawHeaders;
  for (const [name, spelled] of SINGLE_VALUED) {
    let count = 0;
    for (let i = 0; i < raw.length; i += 2) {
      const line = raw[i]!;
      if (line.length === name.length && line.toLowerCase() === name) count++;
    }
    if (count > 1) {
      return httpError(
        'INVALID_REQUEST',
        `${spelled}: the header was sent ${count} times; send it once.`,
      );
    }
  }
  return null;
}

/**
 * The platform's text rule (U+0000, lone surrogates) on the path parameters, the query and the
 * JSON body, naming the field as a REST client spells it (`body.search`, `query.cursor`,
 * `path.id`). The subgraphs apply the same rule to GraphQL arguments; checking here as well names
 * the body rather than GraphQL's `input`, and answers before the lens body validation. Header
 * values cannot carry either: Node's parser refuses control bytes (platform's client-errors.ts)
 * and reads every other byte as one Latin-1 character, which is never a surrogate.
 */
export function unsafeTextError(request: FastifyRequest): HttpError | null {
  const found =
    findUnsafeText(request.params, 'path') ??
    findUnsafeText(request.query, 'query') ??
    findUnsafeText(request.body, 'body');
  return found ? httpError('INVALID_REQUEST', unsafeTextMessage(found)) : null;
}

/**
 * `nosniff` on every answer; `no-store` on every answer that did not choose its own caching (the
 * public OpenAPI document does), so no account data, bank detail or token is kept by a browser
 * or a shared cache.
 */
export const SECURITY_HEADERS = {
  'x-content-type-options': 'nosniff',
  'cache-control': 'no-store',
} as const;

export function addSecurityHeaders(
  _request: FastifyRequest,
  reply: FastifyReply,
  _payload: unknown,
  done: (error?: Error | null) => void,
) {
  reply.header('x-content-type-options', SECURITY_HEADERS['x-content-type-options']);
  if (!reply.hasHeader('cache-control')) {
    reply.header('cache-control', SECURITY_HEADERS['cache-control']);
  }
  done();
}

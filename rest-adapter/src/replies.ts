import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { RouteMethods } from '@campaign/platform';
import { challengeOf } from './auth-challenge.js';
import { httpError, type HttpError } from './errors.js';

/**
 * How the adapter answers what is wrong with the HTTP request itself (issue 21): the catalogue's
 * error body with the headers HTTP pairs with its status (Retry-After, RateLimit,
 * WWW-Authenticate, Allow), a 405 for a known path asked with another method, and a body problem
 * described as what it is.
 */

export function sendError(reply: FastifyReply, error: HttpError) {
  const retryAfter = error.extensions['retryAfterSeconds'];
  if (typeof retryAfter === 'number') reply.header('retry-after', String(retryAfter));
  for (const header of ['rateLimitPolicy', 'rateLimit'] as const) {
    const value = error.extensions[header];
    if (typeof value === 'string')
      reply.header(header === 'rateLimit' ? 'ratelimit' : 'ratelimit-policy', value);
  }
  if (error.status === 401) {
    reply.header('www-authenticate', challengeOf(error.body, reply.request.headers.authorization));
  }
  const data = error.extensions['operation'];
  return reply
    .code(error.status)
    .send({ success: false, error: error.body, ...(data ? { data } : {}) });
}

/** Marks the JSON parser's own refusal, which is the one error that means "not valid JSON". */
export const INVALID_JSON = 'INVALID_JSON';
/** Marks a body that is not JSON at all (another content type). */
export const NOT_JSON = 'NOT_JSON';

/** A body fastify could not take, in words that say which problem it is. */
export function bodyErrorOf(error: FastifyError, request: FastifyRequest): HttpError {
  switch (error.code) {
    case INVALID_JSON:
      return httpError('INVALID_REQUEST', `The request body is not valid JSON: ${error.message}`);
    case NOT_JSON:
      return httpError(
        'INVALID_REQUEST',
        `The request body must be JSON (Content-Type: application/json), not ` +
          `${request.headers['content-type'] ?? 'unnamed content'}.`,
      );
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return httpError('INVALID_REQUEST', 'The request body is larger than the server accepts.');
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return httpError('INVALID_REQUEST', 'Content-Length does not match the body that was sent.');
    default:
      return httpError('INVALID_REQUEST', `The request cannot be read: ${error.message}`);
  }
}

/** Methods none of the adapter's paths reads a body with. */
const BODILESS = new Set(['GET', 'HEAD', 'DELETE', 'OPTIONS']);

/** A request with content: a non-zero length, or chunks whatever their number. */
const carriesBody = (request: FastifyRequest) =>
  request.headers['transfer-encoding'] !== undefined ||
  Number(request.headers['content-length'] ?? 0) > 0;

/**
 * The first check of every request (an onRequest hook, before the body is read and before any
 * credential is looked at): a path that exists but not with this method is a 405 with `Allow`;
 * a body sent with a method that takes none is refused as such rather than parsed or ignored.
 * `protocolBodies` gives the 405 body of a path whose protocol has errors of its own (/mcp).
 */
export function methodGuard(
  routes: RouteMethods,
  protocolBodies: ReadonlyMap<string, (message: string) => unknown>,
) {
  // fastify's callback form (no promise per request); `done` only when the request goes on.
  return (request: FastifyRequest, reply: FastifyReply, done: () => void) => {
    if (request.is404) {
      const path = request.url.split('?')[0]!;
      const allow = routes.allowOf(path);
      if (!allow) return done();
      reply.header('allow', allow.join(', '));
      const message = `${request.method} is not a method of ${path}; it answers ${allow.join(', ')}.`;
      const own = protocolBodies.get(path);
      if (own) return void reply.code(405).send(own(message));
      return void sendError(reply, httpError('METHOD_NOT_ALLOWED', message));
    }
    if (BODILESS.has(request.method) && carriesBody(request)) {
      const path = request.url.split('?')[0]!;
      return void sendError(
        reply,
        httpError('INVALID_REQUEST', `${request.method} ${path} takes no request body; send none.`),
      );
    }
    done();
  };
}

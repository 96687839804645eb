import type { GraphQLFormattedError } from 'graphql';
import { errorBody, isErrorCode, type ErrorCode } from '@campaign/schema';

/**
 * What a caller may see of an error. Catalogue errors (PlatformError) and GraphQL's own input
 * errors keep their words; anything else is unexpected and is masked: its message could hold SQL,
 * table names or a stack. An outage (a database or a service that does not answer) is not a bug
 * but a 503 that says so, retryable.
 */

/** GraphQL's own request errors: the caller's to fix, safe to show. */
const GRAPHQL_REQUEST_CODES = new Set([
  'GRAPHQL_PARSE_FAILED',
  'GRAPHQL_VALIDATION_FAILED',
  'BAD_USER_INPUT',
  'BAD_REQUEST',
  'PERSISTED_QUERY_NOT_FOUND',
  'PERSISTED_QUERY_NOT_SUPPORTED',
  'OPERATION_RESOLUTION_FAILURE',
]);

/** Node and node-postgres codes of a peer that is down, restarting or cut off. */
const UNREACHABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENOTFOUND',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_CLOSED',
  '57P01', // admin_shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now (starting up, shutting down)
  '08000',
  '08001',
  '08003',
  '08006', // connection failures
  '53300', // too_many_connections
]);

const UNREACHABLE_MESSAGES =
  /ECONNREFUSED|ECONNRESET|socket hang up|Connection terminated|connection timeout|timeout exceeded when trying to connect|Client has encountered a connection error|the database system is (starting up|shutting down)|terminating connection due to administrator command|Knex: Timeout acquiring a connection/i;

/** The peer failed mid-request: the caller cannot know whether the change was made. */
const INTERRUPTED_CODES = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET', '57P01', '57P02']);

function* causes(error: unknown): Generator<Record<string, unknown>> {
  const seen = new Set<unknown>();
  let current = error;
  while (current && typeof current === 'object' && !seen.has(current)) {
    seen.add(current);
    yield current as Record<string, unknown>;
    const next = current as { originalError?: unknown; cause?: unknown };
    current = next.originalError ?? next.cause;
  }
}

export type Outage = 'unreachable' | 'interrupted';

/** Classifies an error as an outage of a database or service, or null for anything else. */
export function outageOf(error: unknown): Outage | null {
  let outage: Outage | null = null;
  for (const link of causes(error)) {
    const code = typeof link['code'] === 'string' ? link['code'] : '';
    const message = typeof link['message'] === 'string' ? link['message'] : '';
    const name = typeof link['name'] === 'string' ? link['name'] : '';
    if (INTERRUPTED_CODES.has(code) || /socket hang up|Connection terminated/i.test(message))
      return 'interrupted';
    if (UNREACHABLE_CODES.has(code) || UNREACHABLE_MESSAGES.test(message)) outage = 'unreachable';
    if (name === 'ConnectionException') outage = 'unreachable';
  }
  return outage;
}

/** A catalogue error or GraphQL's own request error: shown as it is, not logged as a fault. */
export function isShownAsIs(code: unknown): boolean {
  return isErrorCode(code) || (typeof code === 'string' && GRAPHQL_REQUEST_CODES.has(code));
}

function catalogueError(
  formatted: GraphQLFormattedError,
  code: ErrorCode,
  message: string,
): GraphQLFormattedError {
  const { code: _code, message: _message, ...body } = errorBody(code, message);
  return {
    message,
    ...(formatted.path ? { path: formatted.path } : {}),
    extensions: { code, ...body },
  };
}

/** The formatted error a caller receives (the original is logged by the server). */
export function maskError(formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError {
  const { stacktrace: _dropped, ...extensions } = formatted.extensions ?? {};
  if (isShownAsIs(extensions['code'])) return { ...formatted, extensions };
  const outage = outageOf(error);
  if (outage === 'interrupted')
    return catalogueError(
      formatted,
      'SERVICE_UNAVAILABLE',
      'A platform service stopped answering in the middle of this request, so its outcome is ' +
        'unknown. Retry it: a lens call with the same Idempotency-Key returns the one result ' +
        'without running twice; other changes answer with their current state.',
    );
  if (outage === 'unreachable')
    return catalogueError(
      formatted,
      'SERVICE_UNAVAILABLE',
      'A platform service or its database is unreachable; nothing was changed. Retry shortly.',
    );
  return catalogueError(
    formatted,
    'INTERNAL_ERROR',
    'An unexpected error occurred; it was logged with the request id (x-request-id).',
  );
}

import { SERVICE_RETRY_AFTER_SECONDS } from '@campaign/platform';
import {
  errorBody,
  errorCatalogue,
  isErrorCode,
  type ErrorBody,
  type ErrorCode,
} from '@campaign/schema';
import type { GraphQLErrorShape } from './gateway-client.js';

/** GraphQL's own input errors (unknown field, wrong type, missing required) are REST 400s. */
const GRAPHQL_INPUT_CODES = new Set([
  'BAD_USER_INPUT',
  'GRAPHQL_VALIDATION_FAILED',
  'GRAPHQL_PARSE_FAILED',
]);

export interface HttpError {
  status: number;
  body: ErrorBody;
  /** Extra catalogue details a REST client needs as headers (e.g. Retry-After). */
  extensions: Record<string, unknown>;
}

/** A 503 always tells the client when to come back (Retry-After). */
function withRetryAfter(error: HttpError): HttpError {
  if (error.status !== 503 || typeof error.extensions['retryAfterSeconds'] === 'number')
    return error;
  return {
    ...error,
    extensions: { ...error.extensions, retryAfterSeconds: SERVICE_RETRY_AFTER_SECONDS },
  };
}

/** The one place where an error code becomes an HTTP status: the catalogue in schema/. */
export function httpErrorOf(error: GraphQLErrorShape): HttpError {
  const extensions = error.extensions ?? {};
  const code = extensions['code'];
  if (isErrorCode(code)) {
    return withRetryAfter({
      status: errorCatalogue[code].httpStatus,
      body: errorBody(code, error.message),
      extensions,
    });
  }
  if (typeof code === 'string' && GRAPHQL_INPUT_CODES.has(code)) {
    return {
      status: 400,
      body: errorBody('INVALID_REQUEST', cleanInputMessage(error.message)),
      extensions,
    };
  }
  return httpError(
    'INTERNAL_ERROR',
    'An unexpected error occurred; it was logged with the request id.',
  );
}

export function httpError(code: ErrorCode, message: string): HttpError {
  return withRetryAfter({
    status: errorCatalogue[code].httpStatus,
    body: errorBody(code, message),
    extensions: {},
  });
}

/**
 * GraphQL names its variables ("$input"); REST callers know only their body, so a value refused
 * inside it is named by its place in the body (`lines[0].partnerId: SafeInt cannot represent …`).
 */
function cleanInputMessage(message: string): string {
  return message
    .replace(/^Variable "\$\w+" got invalid value .*? at "\w+\.([^"]+)"; /s, '$1: ')
    .replace(/^Variable "\$\w+" got invalid value .*?; /s, '')
    .replace(/"\$input"/g, 'body');
}

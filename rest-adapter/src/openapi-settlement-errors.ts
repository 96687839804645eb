import { errorCatalogue, WWW_AUTHENTICATE_HEADER, type ErrorCode } from '@campaign/schema';
import type { Route } from './route.js';

/**
 * The error answers of the settlement paths in the OpenAPI document: which statuses a path can
 * answer and, for each, the catalogue codes (schema/src/errors.ts decides every code's status and
 * retryability; this only says which codes a kind of path meets).
 */

type Schema = Record<string, unknown>;

const WORDS: Record<number, string> = {
  400: 'BadRequest',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'NotFound',
  409: 'Conflict',
  429: 'TooManyRequests',
  500: 'InternalError',
  503: 'ServiceUnavailable',
};

/** The settlement rules' conflicts and the Idempotency-Key ones (issue 23): every 409 of the catalogue. */
const CONFLICTS: ErrorCode[] = (Object.keys(errorCatalogue) as ErrorCode[]).filter(
  (code) => errorCatalogue[code].httpStatus === 409,
);

export type Audience = 'admin' | 'partner' | 'public' | 'webhook';

export function audienceOf(path: string): Audience {
  const segment = path.split('/')[2];
  if (segment === 'admin' || segment === 'partner' || segment === 'public') return segment;
  return 'webhook';
}

/**
 * The codes a path can answer, by status. `mentionsBusinessNumber`: its input carries a business
 * number, whose format and check digit fail as INVALID_BUSINESS_NUMBER.
 */
export function errorCodesOf(
  route: Route<never>,
  options: { list: boolean; mentionsBusinessNumber: boolean },
): Record<number, ErrorCode[]> {
  const mutation = route.document.trimStart().startsWith('mutation');
  // Reverse-issuance look-ups act on the provider's record, which may have moved on (409).
  const reverseIssuance = route.path.includes('reverse-issuance');
  const audience = audienceOf(route.path);
  const codes: Record<number, ErrorCode[]> = {
    400: [
      'INVALID_REQUEST',
      ...(options.list ? (['INVALID_CURSOR'] as const) : []),
      ...(options.mentionsBusinessNumber ? (['INVALID_BUSINESS_NUMBER'] as const) : []),
    ],
  };
  if (audience === 'admin' || audience === 'partner') {
    codes[401] = ['UNAUTHENTICATED'];
    codes[403] = ['PERMISSION_DENIED'];
    // One resource, named by the path or the body, may not exist or be outside the caller's scope.
    if (!options.list) {
      codes[404] = [
        'NOT_FOUND',
        ...(reverseIssuance ? (['REVERSE_ISSUANCE_NOT_FOUND'] as const) : []),
      ];
    }
    if (mutation || reverseIssuance) codes[409] = CONFLICTS;
  }
  if (audience === 'webhook') codes[401] = ['WEBHOOK_SIGNATURE_INVALID'];
  // Business verification counts every request per client address (spec section 8).
  if (audience === 'public') codes[429] = ['RATE_LIMITED'];
  codes[500] = ['INTERNAL_ERROR'];
  codes[503] = [
    'SERVICE_UNAVAILABLE',
    ...(audience === 'webhook' ? [] : (['PROVIDER_UNAVAILABLE'] as const)),
  ];
  return codes;
}

const pascal = (code: string) =>
  code
    .toLowerCase()
    .split('_')
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join('');

/** The first code of each status, named by the status word alone. */
const PRIMARY: Record<number, ErrorCode> = {
  400: 'INVALID_REQUEST',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  409: 'INVALID_STATUS_TRANSITION',
  429: 'RATE_LIMITED',
  500: 'INTERNAL_ERROR',
  503: 'SERVICE_UNAVAILABLE',
};

/** `BadRequest`, `BadRequestInvalidCursor`, `UnauthorizedWebhookSignatureInvalid`, ... */
export function responseName(status: number, codes: readonly ErrorCode[]): string {
  const extra = codes.filter((c) => c !== PRIMARY[status] && !CONFLICTS.includes(c));
  return `${WORDS[status]}${extra.map(pascal).join('')}`;
}

const retryAfter = { 'Retry-After': { $ref: '#/components/headers/RetryAfter' } };

/** The response component of `status` answering one of `codes`. */
export function errorResponse(status: number, codes: readonly ErrorCode[]): Schema {
  const lines = codes.map((c) => `- \`${c}\`: ${errorCatalogue[c].description}`).join('\n');
  return {
    description: `error.code is one of:\n${lines}`,
    ...(status === 429
      ? {
          headers: {
            ...retryAfter,
            'RateLimit-Policy': { $ref: '#/components/headers/RateLimitPolicy' },
            RateLimit: { $ref: '#/components/headers/RateLimit' },
          },
        }
      : status === 503
        ? { headers: retryAfter }
        : status === 401
          ? { headers: { 'WWW-Authenticate': { $ref: '#/components/headers/WWWAuthenticate' } } }
          : {}),
    content: {
      'application/json': {
        schema: {
          type: 'object',
          additionalProperties: false,
          required: ['success', 'error'],
          properties: {
            success: { const: false },
            error: {
              type: 'object',
              additionalProperties: false,
              required: ['code', 'message', 'httpStatus', 'retryable'],
              properties: {
                code: { type: 'string', enum: [...codes] },
                message: { type: 'string' },
                httpStatus: { const: status },
                retryable: { type: 'boolean' },
              },
            },
          },
        },
      },
    },
  };
}

/** Headers the error components refer to. */
export const errorHeaders: Record<string, Schema> = {
  RetryAfter: {
    description: 'Seconds to wait before retrying.',
    schema: { type: 'integer', minimum: 0 },
  },
  RateLimitPolicy: { description: 'The rate-limit policy.', schema: { type: 'string' } },
  RateLimit: { description: 'The current rate-limit state.', schema: { type: 'string' } },
  WWWAuthenticate: WWW_AUTHENTICATE_HEADER,
};

import { readFile } from 'node:fs/promises';
import { LENS_LIMITS } from './lens-input.js';
import { lensOperationList, typeName, type LensOperationContract } from './lens-operations.js';
import { requestSchemas } from './lens-openapi-requests.js';
import { envelopeSchemas, ref, resultSchemas } from './lens-openapi-components.js';
import { lensUsage, usageParameters, usageSchemas } from './lens-usage.js';

/**
 * The OpenAPI 3.1 document of the lens REST interface (`/api/lens/v1`), built here and committed
 * as `schema/openapi/lens.json` (`npm run compose` writes it; a test fails when it is stale). The
 * operations, their paths and request schemas come from `lens-operations.ts`; the REST adapter
 * serves the document at `GET /api/lens/v1/openapi.json` and validates request bodies with its
 * schemas, so the published document is the one that validates.
 */

export const lensOpenApiFile = new URL('../openapi/lens.json', import.meta.url);

const { requests, shared } = requestSchemas(lensOperationList);

/** The error statuses of lens spec section 7, with the codes the platform answers for each. */
const errorResponses: Record<string, { status: string; description: string; codes: string[] }> = {
  BadRequest: {
    status: '400',
    description: 'Input error: fix the body or headers before sending again.',
    codes: ['INVALID_REQUEST', 'INVALID_CURSOR'],
  },
  Unauthorized: {
    status: '401',
    description: 'A valid API key is required (a tool-protocol token is refused).',
    codes: ['UNAUTHENTICATED', 'TOOL_TOKEN_NOT_ALLOWED'],
  },
  PaymentRequired: {
    status: '402',
    description: 'Insufficient credits for the reservation.',
    codes: ['INSUFFICIENT_CREDITS'],
  },
  Forbidden: {
    status: '403',
    description:
      'Permission or plan required, the operation is disabled, or the account is private.',
    codes: ['PERMISSION_DENIED', 'PLAN_REQUIRED', 'OPERATION_DISABLED', 'ACCOUNT_PRIVATE'],
  },
  NotFound: {
    status: '404',
    description: 'Data or execution not found.',
    codes: ['ACCOUNT_NOT_FOUND', 'OPERATION_NOT_FOUND', 'NOT_FOUND'],
  },
  Conflict: {
    status: '409',
    description: 'The Idempotency-Key was used with a different input.',
    codes: ['IDEMPOTENCY_KEY_REUSED'],
  },
  TooManyRequests: {
    status: '429',
    description: 'Request limit: wait Retry-After seconds.',
    codes: ['RATE_LIMITED', 'UPSTREAM_RATE_LIMITED'],
  },
  InternalError: {
    status: '500',
    description: 'Execution failed: check the status with the returned operation id.',
    codes: ['EXECUTION_FAILED', 'INTERNAL_ERROR'],
  },
  ServiceUnavailable: {
    status: '503',
    description: 'Temporarily unable to process; retryable.',
    codes: ['UPSTREAM_UNAVAILABLE', 'FEATURE_UNAVAILABLE', 'SERVICE_UNAVAILABLE'],
  },
};

/**
 * The `WWW-Authenticate` header of a 401 (both documents; the adapter's auth-challenge.ts writes
 * it): how to authenticate, RFC 6750's Bearer challenge on the bearer-token paths.
 */
export const WWW_AUTHENTICATE_HEADER = {
  description:
    'The challenge (RFC 9110 11.6.1): `Bearer realm="campaign-platform"` on bearer-token paths, ' +
    'plus `error="invalid_token"` when a token was sent (RFC 6750); the tax-invoice webhook ' +
    'answers its own `Signature` scheme (the X-Signature header).',
  schema: { type: 'string' },
};

const retryAfter = { 'Retry-After': { $ref: '#/components/headers/RetryAfter' } };

/** The headers each error status carries. */
const headersOf: Record<string, Record<string, unknown>> = {
  '401': { 'WWW-Authenticate': { $ref: '#/components/headers/WWWAuthenticate' } },
  '429': {
    ...retryAfter,
    'RateLimit-Policy': { $ref: '#/components/headers/RateLimitPolicy' },
    RateLimit: { $ref: '#/components/headers/RateLimit' },
  },
  '503': retryAfter,
};

const responseComponents = Object.fromEntries(
  Object.entries(errorResponses).map(([name, r]) => [
    name,
    {
      description: `${r.description} error.code: ${r.codes.join(', ')}.`,
      ...(headersOf[r.status] ? { headers: headersOf[r.status] } : {}),
      content: { 'application/json': { schema: ref('ErrorResponse') } },
    },
  ]),
);

const errorRefs = (names: string[]) =>
  Object.fromEntries(
    names.map((name) => [errorResponses[name]!.status, { $ref: `#/components/responses/${name}` }]),
  );

const observedAtHeader = { 'Lens-Observed-At': { $ref: '#/components/headers/LensObservedAt' } };

function operationPath(op: LensOperationContract) {
  const content = { 'application/json': { schema: ref(typeName(op, 'Response')) } };
  return {
    post: {
      operationId: op.field,
      summary: op.name,
      description: op.summary,
      tags: ['accounts'],
      deprecated: false,
      'x-operation-name': op.name,
      parameters: [{ $ref: '#/components/parameters/IdempotencyKey' }],
      requestBody: {
        required: true,
        content: { 'application/json': { schema: ref(typeName(op, 'Request')) } },
      },
      responses: {
        '200': {
          description: 'Completed (or an existing execution): the envelope with data.',
          headers: observedAtHeader,
          content,
        },
        '202': {
          description: 'Still processing (RUNNING): poll GET /operations/{operationId}.',
          content,
        },
        ...errorRefs(Object.keys(errorResponses)),
      },
    },
  };
}

export function lensOpenApi(): Record<string, unknown> {
  return {
    openapi: '3.1.0',
    info: {
      title: 'Account Data Lookup Service',
      version: '1.0.0',
      description:
        'Billed, idempotent look-ups of public social-media account data. Every call is an operation with an id, a status and credit accounting.',
    },
    servers: [
      {
        url: '{base_url}/api/lens/v1',
        variables: { base_url: { default: 'http://127.0.0.1:8080' } },
      },
    ],
    security: [{ LensKey: [] }],
    tags: [
      { name: 'accounts', description: 'Account data operations (billed).' },
      { name: 'operations', description: 'Operation status.' },
      {
        name: 'account',
        description:
          'The account of the API key: not in the lens specification, an extension of it (free).',
      },
    ],
    paths: {
      ...Object.fromEntries(lensOperationList.map((op) => [op.path, operationPath(op)])),
      '/operations/{operationId}': {
        get: {
          operationId: 'operation',
          summary: 'Operation status',
          description:
            'The envelope of an operation of the caller’s tenant, whatever its status; 404 for any other id.',
          tags: ['operations'],
          deprecated: false,
          parameters: [
            { name: 'operationId', in: 'path', required: true, schema: { type: 'string' } },
          ],
          responses: {
            '200': {
              description: 'The operation envelope.',
              headers: observedAtHeader,
              content: { 'application/json': { schema: ref('OperationResponse') } },
            },
            ...errorRefs([
              'Unauthorized',
              'Forbidden',
              'NotFound',
              'TooManyRequests',
              'InternalError',
              'ServiceUnavailable',
            ]),
          },
        },
      },
      [lensUsage.path]: {
        get: {
          operationId: lensUsage.field,
          summary: 'Usage of the account',
          description: lensUsage.summary,
          tags: ['account'],
          deprecated: false,
          'x-specification-extension': true,
          parameters: usageParameters,
          responses: {
            '200': {
              description:
                'The usage: JSON, or with `Accept: text/csv` the rows as CSV (a header line, then one line per row).',
              content: {
                'application/json': { schema: ref('UsageResponse') },
                'text/csv': { schema: { type: 'string' } },
              },
            },
            ...errorRefs(['BadRequest', 'Unauthorized', 'InternalError', 'ServiceUnavailable']),
          },
        },
      },
      '/openapi.json': {
        get: {
          operationId: 'openApiDocument',
          summary: 'This OpenAPI document',
          tags: ['operations'],
          deprecated: false,
          security: [],
          responses: {
            '200': {
              description: 'The OpenAPI 3.1 document of /api/lens/v1.',
              content: { 'application/json': { schema: { type: 'object' } } },
            },
          },
        },
      },
    },
    components: {
      securitySchemes: {
        LensKey: {
          type: 'http',
          scheme: 'bearer',
          description: 'Authorization: Bearer <API_KEY>. Tool-protocol tokens are refused.',
        },
      },
      parameters: {
        IdempotencyKey: {
          name: 'Idempotency-Key',
          in: 'header',
          required: true,
          description:
            'Identifies the request: a retry with the same key and input returns the existing execution (replayed true); a new request needs a new key.',
          schema: {
            type: 'string',
            minLength: LENS_LIMITS.idempotencyKey.min,
            maxLength: LENS_LIMITS.idempotencyKey.max,
          },
        },
      },
      headers: {
        LensObservedAt: {
          description: 'When the data was observed (ISO 8601).',
          schema: { type: 'string', format: 'date-time' },
        },
        RetryAfter: {
          description: 'Seconds to wait before retrying.',
          schema: { type: 'integer', minimum: 0 },
        },
        RateLimitPolicy: { description: 'The rate-limit policy.', schema: { type: 'string' } },
        RateLimit: { description: 'The current rate-limit state.', schema: { type: 'string' } },
        WWWAuthenticate: WWW_AUTHENTICATE_HEADER,
      },
      responses: responseComponents,
      schemas: { ...requests, ...shared, ...resultSchemas, ...envelopeSchemas, ...usageSchemas },
    },
  };
}

/** The document as committed: two-space JSON with a final newline. */
export function lensOpenApiText(): string {
  return `${JSON.stringify(lensOpenApi(), null, 2)}\n`;
}

export function readLensOpenApi(): Promise<string> {
  return readFile(lensOpenApiFile, 'utf8');
}

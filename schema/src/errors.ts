import { GraphQLError } from 'graphql';

/**
 * The one catalogue of error codes shared by both subgraphs, the gateway and the REST adapter.
 * A code's HTTP status and retryability are decided here and nowhere else; the adapter maps a
 * GraphQL error to its HTTP response by looking the code up in this table.
 */
export interface ErrorSpec {
  readonly httpStatus: number;
  readonly retryable: boolean;
  readonly description: string;
}

export const errorCatalogue = {
  // 400: the caller must fix the input before sending again.
  INVALID_REQUEST: {
    httpStatus: 400,
    retryable: false,
    description: 'The body, a header or a parameter is malformed or out of its documented range.',
  },
  INVALID_CURSOR: {
    httpStatus: 400,
    retryable: false,
    description:
      'The cursor was tampered with, expired, or belongs to another tenant, operation or account.',
  },
  INVALID_BUSINESS_NUMBER: {
    httpStatus: 400,
    retryable: false,
    description: 'A business registration number is not 10 digits or fails its check digit.',
  },
  // 401: no usable credential.
  UNAUTHENTICATED: {
    httpStatus: 401,
    retryable: false,
    description: 'The credential is missing, malformed, unknown, expired or revoked.',
  },
  TOOL_TOKEN_NOT_ALLOWED: {
    httpStatus: 401,
    retryable: false,
    description:
      'A tool-protocol (MCP) connection token was sent to the REST interface; use an API key.',
  },
  API_KEY_NOT_ALLOWED: {
    httpStatus: 401,
    retryable: false,
    description:
      'A REST API key was sent to the tool-protocol (MCP) interface; use a tool-protocol token.',
  },
  WEBHOOK_SIGNATURE_INVALID: {
    httpStatus: 401,
    retryable: false,
    description: 'A webhook delivery carried a missing or wrong signature; nothing was applied.',
  },
  // 402
  INSUFFICIENT_CREDITS: {
    httpStatus: 402,
    retryable: false,
    description: 'The tenant balance cannot cover the reservation for this operation.',
  },
  CREDITS_CAP_EXCEEDED: {
    httpStatus: 402,
    retryable: false,
    description:
      'The call would take this OAuth connection beyond the credits cap its account holder set.',
  },
  // 403
  PERMISSION_DENIED: {
    httpStatus: 403,
    retryable: false,
    description: 'The credential lacks the permission or role this call needs.',
  },
  PLAN_REQUIRED: {
    httpStatus: 403,
    retryable: false,
    description: "The tenant's plan does not include this operation.",
  },
  OPERATION_DISABLED: {
    httpStatus: 403,
    retryable: false,
    description: 'This operation is switched off in this deployment.',
  },
  ACCOUNT_PRIVATE: {
    httpStatus: 403,
    retryable: false,
    description: 'The account is private; its content cannot be read.',
  },
  // 404
  NOT_FOUND: {
    httpStatus: 404,
    retryable: false,
    description: 'The resource does not exist or is outside the caller’s scope.',
  },
  ACCOUNT_NOT_FOUND: {
    httpStatus: 404,
    retryable: false,
    description: 'The upstream has no account with this handle or id.',
  },
  OPERATION_NOT_FOUND: {
    httpStatus: 404,
    retryable: false,
    description: 'No operation with this id exists for the caller’s tenant.',
  },
  REVERSE_ISSUANCE_NOT_FOUND: {
    httpStatus: 404,
    retryable: false,
    description:
      'The settlement has no reverse-issuance record (INDIVIDUAL partner, DIRECT_INVOICE, or ' +
      'not requested yet).',
  },
  // 405 and 431: the HTTP request itself, refused before any credential is looked at.
  METHOD_NOT_ALLOWED: {
    httpStatus: 405,
    retryable: false,
    description: 'The path exists but not with this method; the Allow header lists its methods.',
  },
  // 409
  IDEMPOTENCY_KEY_REUSED: {
    httpStatus: 409,
    retryable: false,
    description: 'The Idempotency-Key was already used with a different operation or input.',
  },
  IDEMPOTENCY_KEY_IN_PROGRESS: {
    httpStatus: 409,
    retryable: true,
    description:
      'A request with this Idempotency-Key is still running; retry shortly for its stored answer.',
  },
  INVALID_STATUS_TRANSITION: {
    httpStatus: 409,
    retryable: false,
    description: 'The requested move is not allowed from the current status.',
  },
  SETTLEMENT_TYPE_MISMATCH: {
    httpStatus: 409,
    retryable: false,
    description: 'The action is only for the other settlement type.',
  },
  TAX_INVOICE_NOT_RECEIVED: {
    httpStatus: 409,
    retryable: false,
    description: "A business partner's tax invoice must be received before completion.",
  },
  SETTLEMENT_TYPE_CHANGE_NOT_ALLOWED: {
    httpStatus: 409,
    retryable: false,
    description:
      'The settlement type can change only in SETTLEMENT_PENDING or AWAITING_ADVERTISER_PAYMENT ' +
      'with no issued advertiser invoice.',
  },
  PARTNER_BUSINESS_NUMBER_MISSING: {
    httpStatus: 409,
    retryable: false,
    description:
      "A business partner's settlement needs its business registration number; an admin records " +
      'it with updatePartner first.',
  },
  QUOTATION_EXPIRED: {
    httpStatus: 409,
    retryable: false,
    description: "The quotation's validUntil has passed; it can no longer be executed.",
  },
  CONFLICT: {
    httpStatus: 409,
    retryable: false,
    description: 'The resource is not in a state that allows this change.',
  },
  CONCURRENT_MODIFICATION: {
    httpStatus: 409,
    retryable: true,
    description: 'Another change to the same resource won; read it again and retry.',
  },
  // 431 (see 405)
  REQUEST_HEADERS_TOO_LARGE: {
    httpStatus: 431,
    retryable: false,
    description: 'The request headers together are larger than the server accepts (16 KiB).',
  },
  // 429
  RATE_LIMITED: {
    httpStatus: 429,
    retryable: true,
    description: 'Too many requests; wait the number of seconds in Retry-After.',
  },
  UPSTREAM_RATE_LIMITED: {
    httpStatus: 429,
    retryable: true,
    description: 'The social-data upstream is throttling; retry later with a new key.',
  },
  // 500
  EXECUTION_FAILED: {
    httpStatus: 500,
    retryable: true,
    description: 'The execution failed unexpectedly; check it with the returned operation id.',
  },
  INTERNAL_ERROR: {
    httpStatus: 500,
    retryable: true,
    description: 'An unexpected server error; it is logged with the request id.',
  },
  // 503: an outside system failed.
  UPSTREAM_UNAVAILABLE: {
    httpStatus: 503,
    retryable: true,
    description: 'The social-data upstream is unavailable; retry later.',
  },
  FEATURE_UNAVAILABLE: {
    httpStatus: 503,
    retryable: true,
    description: 'The upstream does not serve this legacy data kind at the moment.',
  },
  PROVIDER_UNAVAILABLE: {
    httpStatus: 503,
    retryable: true,
    description: 'An outside provider (tax invoice, tax authority) failed or did not answer.',
  },
  SERVICE_UNAVAILABLE: {
    httpStatus: 503,
    retryable: true,
    description: 'A platform service is temporarily unable to process the request.',
  },
} as const satisfies Record<string, ErrorSpec>;

export type ErrorCode = keyof typeof errorCatalogue;

export interface ErrorBody {
  code: string;
  message: string;
  httpStatus: number;
  retryable: boolean;
}

export function isErrorCode(code: unknown): code is ErrorCode {
  return typeof code === 'string' && Object.hasOwn(errorCatalogue, code);
}

export function errorBody(code: ErrorCode, message: string): ErrorBody {
  const spec = errorCatalogue[code];
  return { code, message, httpStatus: spec.httpStatus, retryable: spec.retryable };
}

/** The error every resolver throws for a known failure; its extensions carry the catalogue entry. */
export class PlatformError extends GraphQLError {
  readonly code: ErrorCode;

  constructor(code: ErrorCode, message: string, details?: Record<string, unknown>) {
    const spec = errorCatalogue[code];
    super(message, {
      extensions: { code, httpStatus: spec.httpStatus, retryable: spec.retryable, ...details },
    });
    this.code = code;
  }
}

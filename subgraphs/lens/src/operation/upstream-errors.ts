import { errorBody, PlatformError, type ErrorCode } from '@campaign/schema';
import { UpstreamError, type UpstreamFailureKind } from '../upstream/upstream.port.js';
import type { OperationErrorBody } from './operation.entity.js';

const CODE_OF_KIND: Record<UpstreamFailureKind, ErrorCode> = {
  NOT_FOUND: 'ACCOUNT_NOT_FOUND',
  PRIVATE: 'ACCOUNT_PRIVATE',
  RATE_LIMITED: 'UPSTREAM_RATE_LIMITED',
  UNAVAILABLE: 'UPSTREAM_UNAVAILABLE',
  UNSUPPORTED: 'FEATURE_UNAVAILABLE',
};

/** The error stored on a FAILED operation, from whatever its execution threw. */
export function failureOf(error: unknown): OperationErrorBody {
  if (error instanceof UpstreamError) return errorBody(CODE_OF_KIND[error.kind], error.message);
  // A definition that refuses on purpose (e.g. a cursor check) keeps its catalogue code.
  if (error instanceof PlatformError) return errorBody(error.code, error.message);
  return errorBody('EXECUTION_FAILED', 'The execution failed unexpectedly; it was not charged.');
}

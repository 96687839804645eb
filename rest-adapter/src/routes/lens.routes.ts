import type { FastifyRequest } from 'fastify';
import { lensOperationList, typeName, type LensOperationContract } from '@campaign/schema';
import { lensBodyValidator } from '../openapi.js';
import { defineRoute, params, type RestResponse, type Route } from '../route.js';
import { usageRoute } from './lens-usage.routes.js';

const ENVELOPE = `operationId operationName status data error { code message httpStatus retryable }
  credits { reserved charged refunded } replayed observedAt`;

export const OBSERVED_AT_HEADER = 'lens-observed-at';

export interface Envelope {
  operationId: string;
  operationName: string;
  status: 'RUNNING' | 'SUCCEEDED' | 'FAILED' | 'RECONCILIATION_REQUIRED';
  data: Record<string, unknown> | null;
  error: { code: string; message: string; httpStatus: number; retryable: boolean } | null;
  credits: { reserved: number; charged: number; refunded: number };
  replayed: boolean;
  observedAt: string | null;
}

/** The closed envelope of lens spec 2.1: absent optional members are left out, never null. */
export function restEnvelope(e: Envelope) {
  return {
    operationId: e.operationId,
    operationName: e.operationName,
    status: e.status,
    ...(e.data ? { data: e.data } : {}),
    ...(e.error ? { error: e.error } : {}),
    credits: e.credits,
    replayed: e.replayed,
  };
}

/**
 * An operation's HTTP status follows its state (DESIGN.md L4, L5): 200 done, 202 still
 * processing, and a failure's own status with the envelope in `data` (L1).
 */
export function envelopeResponse(e: Envelope, statusEndpoint = false): RestResponse {
  const headers: Record<string, string> = e.observedAt
    ? { [OBSERVED_AT_HEADER]: e.observedAt }
    : {};
  if (statusEndpoint || e.status === 'SUCCEEDED') {
    return { status: 200, body: { success: true, data: restEnvelope(e) }, headers };
  }
  if (e.status === 'FAILED' && e.error) {
    return {
      status: e.error.httpStatus,
      body: { success: false, error: e.error, data: restEnvelope(e) },
      headers,
    };
  }
  return { status: 202, body: { success: true, data: restEnvelope(e) }, headers };
}

const idempotencyKey = (request: FastifyRequest) => {
  const value = request.headers['idempotency-key'];
  return typeof value === 'string' ? value : '';
};

/** The GraphQL operation of a lens data operation: the REST row's and the MCP tool's. */
export const operationDocument = (contract: LensOperationContract) =>
  `mutation($idempotencyKey: String!, $input: ${typeName(contract, 'Input')}!) {
      result: ${contract.field}(idempotencyKey: $idempotencyKey, input: $input) { ${ENVELOPE} } }`;

/** The status look-up (`GET /operations/{operationId}`, MCP `lens_operations_status`). */
export const STATUS_DOCUMENT = `query($operationId: ID!) { result: operation(operationId: $operationId) { ${ENVELOPE} } }`;

/**
 * A lens data operation (one per contract of `@campaign/schema/lens-operations`): body →
 * `input`, Idempotency-Key header → `idempotencyKey`, checked first against the request schema
 * the published document gives the path.
 */
function operationRoute(contract: LensOperationContract): Route<Record<string, Envelope>> {
  return defineRoute<Record<string, Envelope>>({
    method: 'POST',
    path: `/api/lens/v1${contract.path}`,
    document: operationDocument(contract),
    variables: (request) => ({
      idempotencyKey: idempotencyKey(request),
      input: request.body ?? {},
    }),
    respond: (data) => envelopeResponse(data['result']!),
    validateBody: lensBodyValidator(contract.path),
  });
}

export const lensRoutes: Route<never>[] = [
  ...lensOperationList.map(operationRoute),
  defineRoute<Record<string, Envelope>>({
    method: 'GET',
    path: '/api/lens/v1/operations/:operationId',
    document: STATUS_DOCUMENT,
    variables: (request) => ({ operationId: params(request)['operationId'] }),
    respond: (data) => envelopeResponse(data['result']!, true),
  }),
  usageRoute,
] as Route<never>[];

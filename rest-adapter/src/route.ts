import type { FastifyRequest } from 'fastify';
import type { HttpError } from './errors.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RestResponse {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

/**
 * One row of the adapter: a documented REST path, the GraphQL operation it becomes, how the
 * request becomes variables, and how the operation's data becomes the HTTP response.
 */
export interface Route<D = Record<string, unknown>> {
  method: HttpMethod;
  path: string;
  document: string;
  variables: (request: FastifyRequest) => Record<string, unknown>;
  respond: (data: D, request: FastifyRequest) => RestResponse;
  /** Checks the body against the published document first; a problem is a 400, nothing sent. */
  validateBody?: (body: unknown) => HttpError | null;
  /**
   * The body is kept as the exact text that arrived (any content type), not parsed: a signed
   * body (the tax-invoice webhook) is verified over its raw bytes, which parsing and
   * re-serialising would change, and a malformed one must still reach the signature check.
   */
  rawBody?: boolean;
}

export const defineRoute = <D>(route: Route<D>): Route<D> => route;

/**
 * A row's answer to `data`: the table holds rows of every data shape (`Route<never>`), and the
 * data the gateway returns is that of the row's own document, so the row reads it as its `D`.
 */
export const respondTo = (
  route: Route<never>,
  data: unknown,
  request: FastifyRequest,
): RestResponse =>
  (route.respond as (data: unknown, request: FastifyRequest) => RestResponse)(data, request);

export function params(request: FastifyRequest): Record<string, string> {
  return request.params as Record<string, string>;
}

/** `{success: true, data}`: the admin and partner success body (DESIGN.md section 5). */
export function ok(data: unknown, status = 200): RestResponse {
  return { status, body: { success: true, data } };
}

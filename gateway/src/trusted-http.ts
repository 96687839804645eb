import type { FastifyInstance, FastifyRequest } from 'fastify';
import { IDEMPOTENT_REPLAYED_HEADER, isRequestErrorResult } from '@campaign/platform';
import type { TrustedExecutor } from './apollo-trusted.js';
import type { GatewayConfig } from './config.js';
import { subgraphHeadersOf } from './subgraphs.js';

/**
 * The standalone Apollo gateway's path for its trusted documents (issue 27): a POST whose
 * document is one of schema/trusted-documents.json (by its text, or by its id as an Apollo
 * persisted-query hash) runs on the gateway's executor with the document prepared at start
 * (apollo-trusted.ts), as in the REST adapter, instead of through Apollo Server's per-request
 * pipeline. It answers what Apollo Server answers, byte for byte (gateway/src/trusted-http.test.ts
 * compares them): the same status, `content-type` and body; the service's own hooks (request id,
 * request log, HTTP metrics, security headers) run as for any request, the subgraphs receive the
 * same headers (subgraphHeadersOf) and the same secret. Anything this path does not answer the way
 * Apollo Server would is left to Apollo Server: another document, a GET, batching, a client that
 * asks for another media type than JSON, extensions other than the persisted-query hash.
 */

/** What Apollo Server answers a single result with, for the clients this path takes. */
const JSON_TYPE = 'application/json; charset=utf-8';

/** Accept headers for which Apollo Server chooses `application/json` (no header: the same). */
const JSON_ACCEPT = new Set(['*/*', 'application/json']);

/** A caller's JSON body (fastify parsed it: `content-type: application/json`), or null. */
const plainObject = (value: unknown): Record<string, unknown> | null =>
  typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : null;

const KEYS = new Set(['query', 'variables', 'operationName', 'extensions']);

/** The persisted-query hash of `extensions`, undefined for none, null for anything else. */
function persistedHash(extensions: unknown): string | undefined | null {
  if (extensions === undefined) return undefined;
  const { persistedQuery, ...others } = plainObject(extensions) ?? { others: true };
  if (Object.keys(others).length) return null;
  const pq = plainObject(persistedQuery);
  if (!pq || pq['version'] !== 1 || typeof pq['sha256Hash'] !== 'string') return null;
  return Object.keys(pq).length === 2 ? pq['sha256Hash'] : null;
}

/** The trusted document and variables of a request this path answers, or null. */
function trustedCall(request: FastifyRequest, executor: TrustedExecutor) {
  if (request.method !== 'POST' || request.routeOptions.url !== '/graphql') return null;
  const accept = request.headers.accept;
  if (accept !== undefined && !JSON_ACCEPT.has(accept)) return null;
  const body = plainObject(request.body);
  if (!body || Object.keys(body).some((key) => !KEYS.has(key))) return null;
  const { query, variables, operationName, extensions } = body;
  const hash = persistedHash(extensions);
  if (hash === null) return null;
  const source =
    typeof query === 'string' ? query : query === undefined && hash && executor.sourceOf(hash);
  if (!source) return null;
  // A hash that is not the document's own: Apollo Server's PERSISTED_QUERY_HASH_MISMATCH.
  if (hash && executor.sourceOf(hash) !== source) return null;
  if (variables !== undefined && !plainObject(variables)) return null;
  const operation = executor.operationOf(source);
  if (operation === undefined) return null; // not a trusted document
  if (operationName !== undefined && operationName !== null && operationName !== operation)
    return null;
  return { source, variables: (variables ?? {}) as Record<string, unknown> };
}

/** Answers trusted documents before Apollo Server's route handler sees them. */
export function serveTrustedDocuments(
  app: FastifyInstance,
  executor: TrustedExecutor,
  config: GatewayConfig,
): void {
  app.addHook('preHandler', async (request, reply) => {
    const call = trustedCall(request, executor);
    if (!call) return;
    const answer = await executor.execute(
      call.source,
      call.variables,
      subgraphHeadersOf(request, config.PROXY_SECRET),
    );
    const result = {
      errors: answer.errors,
      data: answer.data,
      extensions: answer.extensions,
    };
    // GraphQL over HTTP (graphqlOverHttpPlugin): request errors are a 200 for a JSON client.
    const status = answer.status === 400 && isRequestErrorResult(result) ? 200 : answer.status;
    for (const [name, value] of answer.headers ?? []) void reply.header(name, value);
    if (answer.replayed) void reply.header(IDEMPOTENT_REPLAYED_HEADER, 'true');
    // Apollo Server's own JSON: errors, data, extensions in that order, and a newline.
    return reply
      .code(status)
      .header('content-type', JSON_TYPE)
      .send(`${JSON.stringify(result)}\n`);
  });
}

import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { GatewayClient } from '../gateway-client.js';
import type { McpAuthorization } from '../oauth/mcp-authorization.js';

/** The tool-protocol endpoint (DESIGN.md section 5). */
export const MCP_PATH = '/mcp';

/**
 * JSON-RPC 2.0's codes for a request that is not one and for a fault of the server (the SDK's
 * `ErrorCode.InvalidRequest` and `ErrorCode.InternalError`): named here so that this module, loaded
 * at start, does not load the SDK (issue 27: the SDK, with its schemas, loads on the first POST).
 */
export const INVALID_REQUEST = -32600;
export const INTERNAL_ERROR = -32603;

export type RpcError = { code: number; message: string; data?: unknown };

/** A JSON-RPC error response; `id` null when the request's id is unknown (JSON-RPC 2.0 5.1). */
export const rpcError = (error: RpcError, id: string | number | null = null) => ({
  jsonrpc: '2.0',
  error,
  id,
});

/** The body of a 405 on /mcp (the adapter's method guard answers it, with Allow). */
export const mcpMethodNotAllowed = (message: string) =>
  rpcError({ code: INVALID_REQUEST, message: `Invalid Request: ${message}` });

/** The POST handler, with the SDK, loaded on the first request. */
let post: Promise<typeof import('./mcp-post.js')> | undefined;
const handlePost = async (
  request: FastifyRequest,
  reply: FastifyReply,
  gateway: GatewayClient,
  auth: McpAuthorization | undefined,
) => (await (post ??= import('./mcp-post.js'))).handlePost(request, reply, gateway, auth);

/**
 * Lens over the tool protocol (issue 13): Streamable HTTP at POST /mcp, stateless: every POST
 * gets a new SDK server and transport, and nothing about a connection is kept between requests,
 * so any adapter replica can answer any request (DESIGN.md section 1: the adapter is stateless)
 * and no session can outlive a token's revocation. Every request's token is checked before the
 * SDK sees it, so any request without a valid token is an HTTP 401 with its challenge (MCP
 * authorization), not a JSON-RPC error in a 200 stream. Answers stream as server-sent events,
 * which carries progress notifications before the result. GET and DELETE (no stream to open, no
 * session to end) are 405s of the adapter's method guard.
 */
export async function registerMcpRoutes(
  app: FastifyInstance,
  gateway: GatewayClient,
  auth?: McpAuthorization,
) {
  // A scope of its own: the body arrives as text, so that what is wrong with it is answered in
  // JSON-RPC's words rather than the REST adapter's.
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) =>
      done(null, body),
    );
    scope.setErrorHandler((error: FastifyError, request, reply) => {
      if (error.statusCode && error.statusCode < 500) {
        const message = `Invalid Request: ${error.message}`;
        return reply.code(error.statusCode).send(rpcError({ code: INVALID_REQUEST, message }));
      }
      request.log.error({ err: error }, 'mcp request failed');
      const message = 'Internal error; it was logged.';
      return reply.code(500).send(rpcError({ code: INTERNAL_ERROR, message }));
    });
    scope.post(MCP_PATH, (request, reply) => handlePost(request, reply, gateway, auth));
  });
}

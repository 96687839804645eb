import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { ErrorCode, isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { REQUEST_ID_HEADER } from '@campaign/platform';
import type { GatewayClient } from '../gateway-client.js';
import { SECURITY_HEADERS } from '../request-guards.js';
import { createLensMcpServer, offersFor, protocolError, type McpCaller } from './mcp-server.js';

/** The tool-protocol endpoint (DESIGN.md section 5). */
export const MCP_PATH = '/mcp';

const callerOf = (request: FastifyRequest): McpCaller => ({
  authorization: request.headers.authorization,
  requestId: request.id,
  clientIp: request.ip,
});

const messages = (body: unknown): unknown[] => (Array.isArray(body) ? body : [body]);

function jsonRpcError(
  reply: FastifyReply,
  status: number,
  error: { code: number; message: string; data?: unknown },
  id: unknown = null,
) {
  return reply.code(status).send({ jsonrpc: '2.0', error, id });
}

/**
 * Lens over the tool protocol (issue 13): Streamable HTTP at POST /mcp, stateless: every POST
 * gets a new SDK server and transport, and nothing about a connection is kept between requests,
 * so any adapter replica can answer any request (DESIGN.md section 1: the adapter is stateless)
 * and no session can outlive a token's revocation. What a session would hold (the token) comes
 * with every request anyway. Answers stream as server-sent events, which carries progress
 * notifications before the result.
 */
export function registerMcpRoutes(app: FastifyInstance, gateway: GatewayClient): void {
  app.post(MCP_PATH, async (request, reply) => {
    const caller = callerOf(request);
    if (request.body === undefined) {
      return jsonRpcError(reply, 400, {
        code: ErrorCode.ParseError,
        message: 'Send a JSON-RPC message as the JSON body.',
      });
    }
    // A connection starts with initialize: refuse a token lens refuses (a REST API key, an
    // unknown or revoked token) there, with lens's code, as REST refuses a tool token.
    const initialize = messages(request.body).find(isInitializeRequest);
    if (initialize) {
      const offers = await offersFor(gateway, caller);
      if ('error' in offers) {
        const { code, message, data } = protocolError(offers.error);
        const id = (initialize as { id?: unknown }).id ?? null;
        return jsonRpcError(reply, offers.error.status, { code, message, data }, id);
      }
    }
    reply.hijack();
    // A hijacked reply skips the onSend hooks that add these to every other answer.
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) reply.raw.setHeader(name, value);
    reply.raw.setHeader(REQUEST_ID_HEADER, request.id);
    const server = createLensMcpServer(gateway, caller);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    reply.raw.on('close', () => {
      void transport.close();
      void server.close();
    });
    try {
      await server.connect(transport);
      await transport.handleRequest(request.raw, reply.raw, request.body);
    } catch (error) {
      request.log.error({ err: error }, 'mcp request failed');
      if (!reply.raw.headersSent) {
        reply.raw.writeHead(500, { 'content-type': 'application/json' });
        reply.raw.end(
          JSON.stringify({
            jsonrpc: '2.0',
            error: { code: ErrorCode.InternalError, message: 'Internal error; it was logged.' },
            id: null,
          }),
        );
      }
    }
  });
  // Stateless: no stream to open (GET) and no session to end (DELETE).
  for (const method of ['GET', 'DELETE'] as const) {
    app.route({
      method,
      url: MCP_PATH,
      handler: async (_request, reply) =>
        jsonRpcError(reply.header('allow', 'POST'), 405, {
          code: ErrorCode.ConnectionClosed,
          message: 'This server is stateless: POST JSON-RPC messages to /mcp.',
        }),
    });
  }
}

import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import {
  ErrorCode,
  isJSONRPCErrorResponse,
  isJSONRPCRequest,
  JSONRPCMessageSchema,
  type JSONRPCMessage,
  type RequestId,
} from '@modelcontextprotocol/sdk/types.js';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { REQUEST_ID_HEADER } from '@campaign/platform';
import { bearerChallenge, tokenSent } from '../auth-challenge.js';
import type { GatewayClient } from '../gateway-client.js';
import type { McpAuthorization } from '../oauth/mcp-authorization.js';
import { SECURITY_HEADERS } from '../request-guards.js';
import { createLensMcpServer, offersFor, protocolError, type McpCaller } from './mcp-server.js';
import { rpcError, type RpcError } from './mcp-route.js';

/** The POST /mcp handler (mcp-route.ts registers it and loads this module on first use). */

const callerOf = (request: FastifyRequest): McpCaller => ({
  authorization: request.headers.authorization,
  requestId: request.id,
  clientIp: request.ip,
});

type Parsed = { messages: JSONRPCMessage[]; body: unknown } | { status: number; error: RpcError };

/**
 * The body as JSON-RPC messages, or the JSON-RPC error a client expects (issue 21): -32700 when
 * it is not JSON, -32600 when it is JSON but not a message or a non-empty batch of them. Checked
 * before the token (DESIGN.md L2: the request's shape first).
 */
function parseMessages(request: FastifyRequest): Parsed {
  const type = request.headers['content-type']?.split(';')[0]?.trim().toLowerCase();
  if (type !== 'application/json') {
    const message = 'Invalid Request: send the JSON-RPC message as Content-Type: application/json.';
    return { status: 415, error: { code: ErrorCode.InvalidRequest, message } };
  }
  let body: unknown;
  try {
    body = JSON.parse(typeof request.body === 'string' ? request.body : '');
  } catch (error) {
    const message = `Parse error: the body is not valid JSON (${(error as Error).message}).`;
    return { status: 400, error: { code: ErrorCode.ParseError, message } };
  }
  const list = Array.isArray(body) ? body : [body];
  const invalid = list.length === 0 || list.some((m) => !JSONRPCMessageSchema.safeParse(m).success);
  if (invalid) {
    const message = 'Invalid Request: the body is not a JSON-RPC 2.0 message or batch of them.';
    return { status: 400, error: { code: ErrorCode.InvalidRequest, message } };
  }
  return { messages: list as JSONRPCMessage[], body };
}

/** "MCP error -32602: " at the start of a message (the SDK's McpError writes it). */
const MCP_ERROR_PREFIX = /^(?:MCP error -?\d+: )+/;

/**
 * The SDK sends a thrown McpError's message as the JSON-RPC error's, prefix included, and the
 * client's McpError adds its own ("MCP error -32602: MCP error -32602: ..."): the wire carries
 * the message alone, for our errors and the SDK's own (an invalid tools/call) alike.
 */
class PlainErrorTransport extends StreamableHTTPServerTransport {
  override send(message: JSONRPCMessage, options?: { relatedRequestId?: RequestId }) {
    if (!isJSONRPCErrorResponse(message)) return super.send(message, options);
    const plain = message.error.message.replace(MCP_ERROR_PREFIX, '');
    return super.send({ ...message, error: { ...message.error, message: plain } }, options);
  }
}

export async function handlePost(
  request: FastifyRequest,
  reply: FastifyReply,
  gateway: GatewayClient,
  auth: McpAuthorization | undefined,
) {
  const parsed = parseMessages(request);
  if ('error' in parsed) return reply.code(parsed.status).send(rpcError(parsed.error));
  // An OAuth access token stands for its connection's lens credential (oauth/).
  const sent = request.headers.authorization;
  const caller = {
    ...callerOf(request),
    authorization: auth ? await auth.lensAuthorization(sent) : sent,
  };
  // The token lens would refuse (none, unknown, revoked, a REST API key) is refused here, on
  // every request, with lens's code; the first request's id answers for the batch.
  const offers = await offersFor(gateway, caller);
  if ('error' in offers) {
    const { code, message, data } = protocolError(offers.error);
    const first = parsed.messages.find(isJSONRPCRequest);
    if (offers.error.status === 401) {
      reply.header(
        'www-authenticate',
        bearerChallenge({
          tokenSent: tokenSent(sent),
          ...(auth ? { resourceMetadata: auth.resourceMetadataUrl } : {}),
        }),
      );
    }
    const plain = message.replace(MCP_ERROR_PREFIX, '');
    return reply
      .code(offers.error.status)
      .send(rpcError({ code, message: plain, data }, first?.id ?? null));
  }
  reply.hijack();
  // A hijacked reply skips the onSend hooks that add these to every other answer.
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) reply.raw.setHeader(name, value);
  reply.raw.setHeader(REQUEST_ID_HEADER, request.id);
  const server = createLensMcpServer(gateway, caller);
  const transport = new PlainErrorTransport({ sessionIdGenerator: undefined });
  reply.raw.on('close', () => {
    void transport.close();
    void server.close();
  });
  try {
    await server.connect(transport);
    await transport.handleRequest(request.raw, reply.raw, parsed.body);
  } catch (error) {
    request.log.error({ err: error }, 'mcp request failed');
    if (!reply.raw.headersSent) {
      reply.raw.writeHead(500, { 'content-type': 'application/json' });
      const message = 'Internal error; it was logged.';
      reply.raw.end(JSON.stringify(rpcError({ code: ErrorCode.InternalError, message })));
    }
  }
}

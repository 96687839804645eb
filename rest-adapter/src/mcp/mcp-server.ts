import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type CallToolResult,
  type ServerNotification,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { findUnsafeText, MCP_INTERFACE, unsafeTextMessage } from '@campaign/platform';
import { httpError, httpErrorOf, type HttpError } from '../errors.js';
import type { GatewayClient } from '../gateway-client.js';
import { operationDocument, STATUS_DOCUMENT, type Envelope } from '../routes/lens.routes.js';
import { envelopeResult, refusalResult, toolWords } from './results.js';
import { lensTools, listedTool, STATUS_TOOL, statusTool, toolName, type Price } from './tools.js';
import { callUsage, USAGE_TOOL, usageTool } from './usage-tool.js';

/** Who is calling, as the REST routes send it to the gateway. */
export interface McpCaller {
  authorization: string | undefined;
  requestId: string;
  clientIp: string;
}

/** How often a waiting tool call tells a client that asked for progress that it still waits. */
export const PROGRESS_INTERVAL_MS = 500;

const INSTRUCTIONS =
  'Lens: billed, idempotent look-ups of public social-media account data. Every lens_ tool but ' +
  `${STATUS_TOOL} starts one operation and spends credits (its description says how many). ` +
  'Give every new request a new requestKey; to retry after a lost answer, send the same ' +
  'arguments with the same requestKey (the existing execution comes back, never run or charged ' +
  `twice). A RUNNING answer goes on by itself: follow it with ${STATUS_TOOL} (free). Errors ` +
  'carry error.code, httpStatus and retryable.';

export const AVAILABLE_DOCUMENT = '{ availableOperations { name priceBase pricePerItem } }';

type Offer = { name: string; priceBase: number; pricePerItem: number };
type Sent<T> = { data: T } | { error: HttpError };

/** One GraphQL operation on the gateway as the caller, over the tool protocol. */
async function send<T>(
  gateway: GatewayClient,
  caller: McpCaller,
  document: string,
  variables: Record<string, unknown>,
): Promise<Sent<T>> {
  const result = await gateway.execute<T>(document, variables, {
    ...caller,
    lensInterface: MCP_INTERFACE,
  });
  if (result.errors?.length) return { error: httpErrorOf(result.errors[0]!) };
  return { data: result.data as T };
}

/**
 * The operations the caller's token may call here (lens decides: deployment, plan,
 * permissions), or lens's refusal of the token. Also the MCP front's check of a new connection.
 */
export async function offersFor(gateway: GatewayClient, caller: McpCaller): Promise<Sent<Offer[]>> {
  const sent = await send<{ availableOperations: Offer[] }>(
    gateway,
    caller,
    AVAILABLE_DOCUMENT,
    {},
  );
  return 'error' in sent ? sent : { data: sent.data.availableOperations };
}

/** A JSON-RPC error carrying the catalogue entry, for requests that are not tool calls. */
export function protocolError(error: HttpError): McpError {
  const { code, httpStatus, retryable } = error.body;
  const message = `${code} (HTTP ${httpStatus}): ${toolWords(error.body.message)}`;
  return new McpError(ErrorCode.InvalidRequest, message, { code, httpStatus, retryable });
}

/**
 * tools/call by its method alone. The SDK's Server checks a tools/call's params itself and answers
 * a bad one -32602 Invalid params, but its base class first parses the request with the schema it
 * is given and answers that ZodError as -32603 Internal error: given only the method, the Server's
 * own check is the one that speaks.
 */
const TOOLS_CALL = z.looseObject({ method: z.literal('tools/call') });

type Notify = (notification: ServerNotification) => Promise<void>;

/**
 * Waits for `work`, telling a client that sent a progressToken every PROGRESS_INTERVAL_MS that
 * the call still waits (lens answers within its sync budget, RUNNING after it).
 */
async function withProgress<T>(
  token: string | number | undefined,
  notify: Notify,
  label: string,
  work: Promise<T>,
): Promise<T> {
  if (token === undefined) return work;
  const started = Date.now();
  let progress = 0;
  const tick = () => {
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    const params = { progressToken: token, progress: ++progress };
    const message = `${label}: waiting for the result (${seconds} s)`;
    // A client that went away cannot be told; the answer itself still counts.
    notify({ method: 'notifications/progress', params: { ...params, message } }).catch(() => {});
  };
  tick();
  const timer = setInterval(tick, PROGRESS_INTERVAL_MS);
  try {
    return await work;
  } finally {
    clearInterval(timer);
  }
}

async function callOperation(
  gateway: GatewayClient,
  caller: McpCaller,
  name: string,
  args: Record<string, unknown>,
  progress: { token: string | number | undefined; notify: Notify },
): Promise<CallToolResult> {
  const tool = lensTools.get(name);
  if (!tool) throw new McpError(ErrorCode.InvalidParams, `No tool ${name}; see tools/list.`);
  const unsafe = findUnsafeText(args, 'arguments');
  if (unsafe) return refusalResult(httpError('INVALID_REQUEST', unsafeTextMessage(unsafe)));
  const { requestKey, ...body } = args;
  // The body first, as REST checks it before the Idempotency-Key (DESIGN.md L2).
  const invalid = tool.validateBody(body);
  if (invalid) return refusalResult(invalid);
  if (typeof requestKey !== 'string') {
    return refusalResult(
      httpError(
        'INVALID_REQUEST',
        'requestKey is required: a string identifying this request, new for every new request.',
      ),
    );
  }
  const sent = await withProgress(
    progress.token,
    progress.notify,
    tool.contract.name,
    send<{ result: Envelope }>(gateway, caller, operationDocument(tool.contract), {
      idempotencyKey: requestKey,
      input: body,
    }),
  );
  return 'error' in sent ? refusalResult(sent.error) : envelopeResult(sent.data.result);
}

async function callStatus(
  gateway: GatewayClient,
  caller: McpCaller,
  args: Record<string, unknown>,
): Promise<CallToolResult> {
  const { operationId, ...rest } = args;
  const extra = Object.keys(rest)[0];
  if (typeof operationId !== 'string' || extra !== undefined) {
    const problem = extra ? `unknown property "${extra}"` : 'operationId (a string) is required';
    return refusalResult(httpError('INVALID_REQUEST', `arguments: ${problem}`), true);
  }
  const sent = await send<{ result: Envelope }>(gateway, caller, STATUS_DOCUMENT, { operationId });
  return 'error' in sent ? refusalResult(sent.error, true) : envelopeResult(sent.data.result, true);
}

/**
 * The MCP server of one HTTP request (stateless Streamable HTTP: mcp-route.ts). The low-level
 * SDK server, not McpServer: the tool list is made per token from what lens offers, with JSON
 * Schemas taken from the published document, and a tool that is not listed is still called (lens
 * refuses it as on REST) rather than refused by the SDK as unknown.
 */
export function createLensMcpServer(gateway: GatewayClient, caller: McpCaller): Server {
  const server = new Server(
    { name: 'lens', version: '1.0.0' },
    { capabilities: { tools: { listChanged: false } }, instructions: INSTRUCTIONS },
  );
  server.setRequestHandler(ListToolsRequestSchema, async () => {
    const offers = await offersFor(gateway, caller);
    if ('error' in offers) throw protocolError(offers.error);
    const tools: Tool[] = [];
    for (const offer of offers.data) {
      const tool = lensTools.get(toolName(offer.name));
      const price: Price = { base: offer.priceBase, perItem: offer.pricePerItem };
      if (tool) tools.push(listedTool(tool, price));
    }
    return { tools: [...tools, statusTool, usageTool] };
  });
  server.setRequestHandler(TOOLS_CALL, async (raw, extra) => {
    const request = CallToolRequestSchema.parse(raw); // checked by the Server already (above)
    const { name, arguments: args = {} } = request.params;
    if (name === STATUS_TOOL) return callStatus(gateway, caller, args);
    if (name === USAGE_TOOL)
      return callUsage((doc, vars) => send(gateway, caller, doc, vars), args);
    return callOperation(gateway, caller, name, args, {
      token: request.params._meta?.progressToken,
      notify: extra.sendNotification,
    });
  });
  return server;
}

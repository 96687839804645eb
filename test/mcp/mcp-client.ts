import { randomUUID } from 'node:crypto';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult, Progress } from '@modelcontextprotocol/sdk/types.js';
import { afterAll } from 'vitest';
import { lensOperationList } from '@campaign/schema';
import { stack } from '../support/clients.js';
import type { Envelope } from '../lens/lens-client.js';

/**
 * Whole-stack helpers of the tool-protocol tests: the MCP SDK's own client over real HTTP to the
 * REST adapter's /mcp, as an AI agent's host would connect.
 */

export const mcpUrl = (rest: string = stack().rest) => new URL('/mcp', rest);

export async function connect(token: string | undefined, rest?: string): Promise<Client> {
  const client = new Client({ name: 'lens-whole-stack-tests', version: '1.0.0' });
  const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
  await client.connect(
    new StreamableHTTPClientTransport(mcpUrl(rest), { requestInit: { headers } }),
  );
  return client;
}

/** Clients connected during a test file, closed after it. */
export function useClients(): (token: string, rest?: string) => Promise<Client> {
  const open: Client[] = [];
  afterAll(async () => {
    await Promise.all(open.map((c) => c.close()));
  });
  return async (token, rest) => {
    const client = await connect(token, rest);
    open.push(client);
    return client;
  };
}

export interface ErrorBody {
  code: string;
  message: string;
  httpStatus: number;
  retryable: boolean;
}

export interface ToolAnswer {
  isError: boolean;
  envelope: Envelope | undefined;
  /** The catalogue entry of a refusal (lens/error), or of a FAILED operation. */
  error: ErrorBody | undefined;
  meta: Record<string, unknown>;
  text: string;
}

export function answerOf(result: CallToolResult): ToolAnswer {
  const envelope = result.structuredContent as Envelope | undefined;
  const meta = result._meta ?? {};
  return {
    isError: result.isError === true,
    envelope,
    error: (meta['lens/error'] as ErrorBody | undefined) ?? envelope?.error,
    meta,
    text: result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n'),
  };
}

export async function callTool(
  client: Client,
  name: string,
  args: Record<string, unknown>,
  onprogress?: (progress: Progress) => void,
): Promise<ToolAnswer> {
  const result = await client.callTool(
    { name, arguments: args },
    undefined,
    onprogress ? { onprogress } : {},
  );
  return answerOf(result as CallToolResult);
}

/** A fresh requestKey, as a model would make one for each new request. */
export const newKey = () => randomUUID();

export const HANDLE = 'minji.daily';
const ref = { handle: HANDLE };

/** A valid body for every lens operation (REST body = tool arguments without requestKey). */
export const VALID_BODIES: Record<string, Record<string, unknown>> = {
  'accounts.profile': { accountRef: ref, detail: 'extended' },
  'accounts.posts': { accountRef: ref, pageSize: 3 },
  'accounts.reels': { accountRef: ref, pageSize: 2 },
  'accounts.taggedPosts': { accountRef: ref, pageSize: 2 },
  'accounts.followers': { accountRef: ref, pageSize: 5 },
  'accounts.following': { accountRef: ref, search: 'a' },
  'accounts.guides': { accountRef: ref },
  'accounts.stories': { accountRefs: [ref, { handle: 'jiwoo.studio' }] },
  'accounts.highlights': { accountRef: ref },
  'accounts.broadcast': { accountRef: ref },
  'accounts.related': { accountRef: ref },
  'accounts.about': { accountRef: ref },
  'accounts.search': { search: 'minji' },
};

export const OPERATION_NAMES = lensOperationList.map((c) => c.name);
export const toolOf = (operationName: string) => `lens_${operationName.replace('.', '_')}`;
export const ALL_TOOLS = [...OPERATION_NAMES.map(toolOf), 'lens_operations_status', 'lens_usage'];

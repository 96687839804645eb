import { describe, expect, it } from 'vitest';
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import { LENS_INTERFACE_HEADER, PROXY_SECRET_HEADER } from '@campaign/platform';
import { cli, keyArgs, useCli } from '../support/cli.js';
import { graphql, stack } from '../support/clients.js';
import { expectError, profile } from '../lens/engine-support.js';
import { callTool, connect, HANDLE, mcpUrl, newKey, useClients } from './mcp-client.js';

/** What an MCP host sends first; raw, to see the HTTP status of a refused connection. */
async function initialize(authorization?: string) {
  const response = await fetch(mcpUrl(), {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...(authorization ? { authorization } : {}),
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: LATEST_PROTOCOL_VERSION,
        capabilities: {},
        clientInfo: { name: 'raw', version: '1' },
      },
    }),
  });
  // A refusal is plain JSON; an accepted initialize streams its answer as server-sent events.
  const json = response.headers.get('content-type')?.startsWith('application/json');
  const body = json ? ((await response.json()) as Record<string, unknown>) : await response.text();
  return { status: response.status, body };
}

describe('who may use the tool protocol, and what each token is offered (issue 13, L7)', () => {
  const open = useClients();
  const mcp = (...args: string[]) => keyArgs('--kind', 'mcp', ...args);
  const keys = useCli({
    restKey: keyArgs(),
    mcpToken: mcp(),
    revoked: mcp(),
    starter: mcp('--plan', 'starter'),
    narrowed: mcp('--operations', 'accounts.search,accounts.posts'),
    other: mcp(),
  });

  it('a REST API key is refused when connecting: 401 API_KEY_NOT_ALLOWED, a clear message', async () => {
    const refused = await initialize(`Bearer ${keys.restKey}`);
    expect(refused.status).toBe(401);
    expect(refused.body).toMatchObject({
      jsonrpc: '2.0',
      id: 1,
      error: { data: { code: 'API_KEY_NOT_ALLOWED', httpStatus: 401, retryable: false } },
    });
    expect(JSON.stringify(refused.body)).toContain('needs a tool-protocol token (lmcp_');
    await expect(connect(keys.restKey)).rejects.toThrow(/API_KEY_NOT_ALLOWED/);
  });

  it('no token, an unknown one or a revoked one is 401 UNAUTHENTICATED', async () => {
    expect(await cli('lens:revoke-key', keys.revoked)).toBe('revoked');
    for (const authorization of [undefined, 'Bearer lmcp_unknown', `Bearer ${keys.revoked}`]) {
      const refused = await initialize(authorization);
      expect(refused.status).toBe(401);
      expect(refused.body).toMatchObject({ error: { data: { code: 'UNAUTHENTICATED' } } });
    }
    expect((await initialize(`Bearer ${keys.mcpToken}`)).status).toBe(200);
  });

  it('a tool token stays refused on REST and GraphQL, whatever interface header is sent', async () => {
    const forged = { [LENS_INTERFACE_HEADER]: 'mcp', [PROXY_SECRET_HEADER]: 'a-guessed-secret!!' };
    const viaRest = await fetch(`${stack().rest}/api/lens/v1/accounts/profile`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${keys.mcpToken}`,
        'idempotency-key': newKey(),
        ...forged,
      },
      body: JSON.stringify({ accountRef: { handle: HANDLE } }),
    });
    expect(viaRest.status).toBe(401);
    expect(await viaRest.json()).toMatchObject({ error: { code: 'TOOL_TOKEN_NOT_ALLOWED' } });
    expectError(
      await profile(keys.mcpToken, { accountRef: { handle: HANDLE } }),
      401,
      'TOOL_TOKEN_NOT_ALLOWED',
      false,
    );
    for (const headers of [{ [LENS_INTERFACE_HEADER]: 'mcp' }, forged]) {
      const response = await fetch(stack().gateway, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          authorization: `Bearer ${keys.mcpToken}`,
          ...headers,
        },
        body: JSON.stringify({ query: '{ creditBalance availableOperations { name } }' }),
      });
      const body = (await response.json()) as { errors?: { extensions?: { code?: string } }[] };
      expect(body.errors?.[0]?.extensions?.code).toBe('TOOL_TOKEN_NOT_ALLOWED');
    }
    const direct = await graphql('{ availableOperations { name } }', {}, keys.restKey);
    expect(direct.data).toMatchObject({ availableOperations: expect.any(Array) });
  });

  it('the tool list follows the token: a starter plan, narrowed permissions', async () => {
    const names = async (token: string) =>
      (await (await open(token)).listTools()).tools.map((t) => t.name);
    expect(await names(keys.starter)).toEqual([
      'lens_accounts_profile',
      'lens_accounts_about',
      'lens_accounts_search',
      'lens_operations_status',
      'lens_usage',
    ]);
    expect(await names(keys.narrowed)).toEqual([
      'lens_accounts_posts',
      'lens_accounts_search',
      'lens_operations_status',
      'lens_usage',
    ]);
  });

  it('lens_operations_status: another tenant’s or an unknown operation is 404', async () => {
    const [mine, theirs] = await Promise.all([open(keys.mcpToken), open(keys.other)]);
    const started = await callTool(mine, 'lens_accounts_about', {
      accountRef: { handle: HANDLE },
      requestKey: newKey(),
    });
    for (const operationId of [started.envelope!.operationId, 'not-a-uuid']) {
      const answer = await callTool(theirs, 'lens_operations_status', { operationId });
      expect(answer.isError).toBe(true);
      expect(answer.error).toMatchObject({ code: 'OPERATION_NOT_FOUND', httpStatus: 404 });
    }
    const bad = await callTool(mine, 'lens_operations_status', {});
    expect(bad.error).toMatchObject({ code: 'INVALID_REQUEST', httpStatus: 400 });
  });

  it('the endpoint is stateless: GET and DELETE /mcp are 405', async () => {
    for (const method of ['GET', 'DELETE']) {
      const response = await fetch(mcpUrl(), { method, headers: { accept: 'text/event-stream' } });
      expect(response.status).toBe(405);
      expect(response.headers.get('allow')).toBe('POST');
    }
  });
});

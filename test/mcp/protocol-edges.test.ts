import { describe, expect, it } from 'vitest';
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { cli, keyArgs, useCli } from '../support/cli.js';
import { stack } from '../support/clients.js';
import { eventually } from '../support/sinks.js';
import { callTool, HANDLE, mcpUrl, newKey, useClients } from './mcp-client.js';

/**
 * /mcp answers as an MCP client expects (issue 21): JSON-RPC errors with `id: null` for a body
 * that is not a message, error messages prefixed once, an HTTP 401 with its Bearer challenge for
 * every request without a valid token, and a 405 with Allow for other methods.
 */

const JSON_RPC = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
};

async function post(body: string, headers: Record<string, string> = {}) {
  const response = await fetch(mcpUrl(), {
    method: 'POST',
    headers: { ...JSON_RPC, ...headers },
    body,
  });
  const type = response.headers.get('content-type') ?? '';
  const answer = type.startsWith('application/json')
    ? ((await response.json()) as Record<string, unknown>)
    : await response.text();
  return { status: response.status, headers: response.headers, body: answer };
}

const toolsList = JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/list' });

describe('a body that is not a JSON-RPC message (issue 21, item 4)', () => {
  const keys = useCli({ token: keyArgs('--kind', 'mcp') });

  it('malformed JSON is -32700 Parse error with id null, whatever the token', async () => {
    const withToken: Record<string, string> = { authorization: `Bearer ${keys.token}` };
    for (const headers of [{}, withToken]) {
      const answer = await post('{"jsonrpc": "2.0", "id": 1, "method": ', headers);
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual({
        jsonrpc: '2.0',
        id: null,
        error: { code: -32700, message: expect.stringMatching(/^Parse error: /) },
      });
    }
  });

  it('JSON that is not a message or batch of them is -32600 Invalid Request, id null', async () => {
    for (const body of ['{"hello": "world"}', '[]', '42', '{"jsonrpc": "1.0", "id": 1}']) {
      const answer = await post(body, { authorization: `Bearer ${keys.token}` });
      expect(answer.status, body).toBe(400);
      expect(answer.body, body).toMatchObject({
        jsonrpc: '2.0',
        id: null,
        error: { code: -32600 },
      });
    }
  });

  it('a body that is not JSON at all is a JSON-RPC error too, never the REST envelope', async () => {
    const answer = await post(toolsList, {
      'content-type': 'text/plain',
      authorization: `Bearer ${keys.token}`,
    });
    expect(answer.status).toBe(415);
    expect(answer.body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600 } });
    expect(answer.body).not.toHaveProperty('success');
  });
});

describe('error messages through the official client (issue 21, item 4)', () => {
  const open = useClients();
  const keys = useCli({ token: keyArgs('--kind', 'mcp') });

  it('an unknown tool and a malformed tools/call are prefixed once', async () => {
    const client = await open(keys.token);
    const unknown = await client.callTool({ name: 'lens_nothing', arguments: {} }).catch((e) => e);
    expect(String(unknown)).toMatch(/MCP error -32602: No tool lens_nothing/);
    expect(String(unknown)).not.toMatch(/MCP error .*MCP error/);
    // On the wire the message comes alone (the client adds the one prefix), for the SDK's own
    // check of a tools/call as for ours.
    const malformed = await post(
      JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 42 } }),
      { authorization: `Bearer ${keys.token}` },
    );
    const event = /^data: (.*)$/m.exec(String(malformed.body))?.[1];
    expect(JSON.parse(event!)).toMatchObject({
      id: 3,
      error: { code: -32602, message: expect.not.stringMatching(/^MCP error/) },
    });
  });
});

const RESOURCE_METADATA = () => `${stack().rest}/.well-known/oauth-protected-resource/mcp`;

describe('every request needs a valid token (issue 21, item 5; MCP authorization)', () => {
  const open = useClients();
  const keys = useCli({
    token: keyArgs('--kind', 'mcp'),
    restKey: keyArgs(),
    revokedLater: keyArgs('--kind', 'mcp'),
  });

  it('tools/list without a token: HTTP 401, Bearer challenge without an error code', async () => {
    const answer = await post(toolsList);
    expect(answer.status).toBe(401);
    // With OAuth (issue 25), the challenge also points to the resource's metadata (RFC 9728).
    expect(answer.headers.get('www-authenticate')).toBe(
      `Bearer realm="campaign-platform", resource_metadata="${RESOURCE_METADATA()}"`,
    );
    expect(answer.body).toMatchObject({
      jsonrpc: '2.0',
      id: 7,
      error: { data: { code: 'UNAUTHENTICATED', httpStatus: 401 } },
    });
  });

  it('a refused token on any request: 401 with error="invalid_token"', async () => {
    const notification = JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' });
    for (const [token, code] of [
      ['lmcp_unknown', 'UNAUTHENTICATED'],
      [keys.restKey, 'API_KEY_NOT_ALLOWED'],
    ] as const) {
      for (const body of [toolsList, notification]) {
        const answer = await post(body, { authorization: `Bearer ${token}` });
        expect(answer.status, body).toBe(401);
        expect(answer.headers.get('www-authenticate')).toBe(
          `Bearer realm="campaign-platform", error="invalid_token", resource_metadata="${RESOURCE_METADATA()}"`,
        );
        expect(answer.body).toMatchObject({ error: { data: { code } } });
      }
    }
    expect((await post(toolsList, { authorization: `Bearer ${keys.token}` })).status).toBe(200);
  });

  it('a token revoked while connected: the next call is an HTTP 401 the client sees', async () => {
    const client = await open(keys.revokedLater);
    expect(await cli('lens:revoke-key', keys.revokedLater)).toBe('revoked');
    // Lens learns of a revocation by notification (its key cache): wait for that fact.
    await eventually(
      () => post(toolsList, { authorization: `Bearer ${keys.revokedLater}` }),
      (answer) => answer.status === 401,
      'the revocation reaching lens',
    );
    const refused = await callTool(client, 'lens_accounts_profile', {
      accountRef: { handle: HANDLE },
      requestKey: newKey(),
    }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(StreamableHTTPError);
    expect((refused as StreamableHTTPError).code).toBe(401);
    expect(String(refused)).toMatch(/UNAUTHENTICATED/);
  });
});

describe('other methods on /mcp (issue 21, item 6)', () => {
  it('GET, DELETE and PUT are 405 with Allow: POST and a JSON-RPC body', async () => {
    for (const method of ['GET', 'DELETE', 'PUT']) {
      const response = await fetch(mcpUrl(), { method, headers: { accept: 'text/event-stream' } });
      expect(response.status, method).toBe(405);
      expect(response.headers.get('allow')).toBe('POST');
      expect(await response.json()).toMatchObject({
        jsonrpc: '2.0',
        id: null,
        error: { code: -32600 },
      });
    }
  });
});

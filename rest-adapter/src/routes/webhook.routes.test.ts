import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '@campaign/platform';
import { loadRestAdapterConfig } from '../config.js';
import { startRestAdapter } from '../server.js';
import { TAX_INVOICE_WEBHOOK_PATH } from './webhook.routes.js';

/**
 * The webhook route against a stand-in settlement subgraph (behind the gateway engine the adapter
 * runs in its own process, issue 27): the body reaches GraphQL as the exact text that arrived,
 * whatever it is, with the X-Signature header and no credential; the answer is the adapter's
 * usual envelope. (Verification itself is the subgraph's: test/settlement/webhook.)
 */
interface Seen {
  variables: Record<string, unknown>;
  authorization: string | undefined;
}

let subgraph: Server;
let adapter: RunningServer;
const seen: Seen[] = [];
let answer: unknown = { data: { result: { applied: true } } };

beforeAll(async () => {
  subgraph = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    request.on('end', () => {
      const { variables } = JSON.parse(body) as { variables: Record<string, unknown> };
      seen.push({ variables, authorization: request.headers.authorization });
      response.setHeader('content-type', 'application/json');
      response.end(JSON.stringify(answer));
    });
  });
  await new Promise<void>((resolve) => subgraph.listen(0, '127.0.0.1', resolve));
  const address = subgraph.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  adapter = await startRestAdapter(
    loadRestAdapterConfig({
      REST_PORT: '0',
      SETTLEMENT_SUBGRAPH_URL: `http://127.0.0.1:${port}/graphql`,
      LOG_LEVEL: 'silent',
    }),
  );
});
afterAll(async () => {
  await adapter?.close();
  await new Promise((resolve) => subgraph?.close(resolve));
});

const post = (body: string, headers: Record<string, string>) =>
  fetch(`${adapter.url}${TAX_INVOICE_WEBHOOK_PATH}`, { method: 'POST', headers, body });

describe('POST /api/webhooks/tax-invoice', () => {
  it('forwards the raw text and the signature, unparsed, and answers the envelope', async () => {
    const raw = '{ "eventId" :"e1",\n  "status": "SUCCESS" }\n';
    const response = await post(raw, {
      'content-type': 'application/json',
      'x-signature': 't=1,v1=ab',
      authorization: 'Bearer ignored',
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ success: true, data: { applied: true } });
    expect(seen.at(-1)!.variables).toEqual({ rawBody: raw, signature: 't=1,v1=ab' });
  });

  it('forwards a body that is not JSON, or of another type, for the signature check to judge', async () => {
    await post('{"eventId": ', { 'content-type': 'application/json' });
    expect(seen.at(-1)!.variables).toEqual({ rawBody: '{"eventId": ', signature: null });
    await post('a=b', { 'content-type': 'text/plain' });
    expect(seen.at(-1)!.variables['rawBody']).toBe('a=b');
  });

  it('answers the subgraph’s refusal in the catalogue’s shape', async () => {
    answer = {
      errors: [
        { message: 'The X-Signature is wrong', extensions: { code: 'WEBHOOK_SIGNATURE_INVALID' } },
      ],
    };
    try {
      const response = await post('{}', { 'content-type': 'application/json' });
      expect(response.status).toBe(401);
      expect(await response.json()).toMatchObject({
        success: false,
        error: { code: 'WEBHOOK_SIGNATURE_INVALID', httpStatus: 401, retryable: false },
      });
    } finally {
      answer = { data: { result: { applied: true } } };
    }
  });

  it('leaves the other routes’ JSON parsing as it was', async () => {
    const response = await fetch(`${adapter.url}/api/admin/settlements/SET1/cancel`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"reason": ',
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe(
      'INVALID_REQUEST',
    );
  });
});

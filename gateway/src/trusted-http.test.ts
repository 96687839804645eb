import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, SUBGRAPH_SECRET_HEADER } from '@campaign/platform';
import { loadGatewayConfig } from './config.js';
import { startGateway } from './server.js';
import { trustedDocumentBodies } from './trusted-documents.js';

/**
 * Issue 27: the standalone Apollo gateway answers its trusted documents without Apollo Server's
 * pipeline (trusted-http.ts). Each request is sent twice: with the trusted document's text (that
 * path) and with the same text and one more newline (not a trusted document: Apollo Server), and
 * the two answers must be the same bytes, status and headers. Both subgraphs are one simulated
 * subgraph on loopback that records what it is sent and answers what the test sets.
 */
let answer: { status: number; body: unknown; headers?: Record<string, string> };
const received: IncomingHttpHeaders[] = [];
let subgraph: Server;
let gateway: RunningServer;
let documents: string[];

beforeAll(async () => {
  subgraph = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      received.push(request.headers);
      response.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
      response.end(JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => subgraph.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(subgraph.address() as AddressInfo).port}/graphql`;
  gateway = await startGateway(
    loadGatewayConfig({
      GATEWAY_PORT: '0',
      LENS_SUBGRAPH_URL: url,
      SETTLEMENT_SUBGRAPH_URL: url,
      SUBGRAPH_SECRET: 'the-subgraph-secret',
      LOG_LEVEL: 'silent',
    }),
  );
  documents = await trustedDocumentBodies();
});

afterAll(async () => {
  await gateway?.close();
  await new Promise((resolve) => subgraph?.close(resolve));
});

const documentWith = (field: string) => documents.find((d) => d.includes(`${field}(`))!;

async function post(body: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(`${gateway.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return {
    status: response.status,
    type: response.headers.get('content-type'),
    replayed: response.headers.get('idempotent-replayed'),
    cache: response.headers.get('cache-control'),
    nosniff: response.headers.get('x-content-type-options'),
    requestId: response.headers.get('x-request-id'),
    text: await response.text(),
  };
}

/** The trusted path's answer and Apollo Server's to the same request, request ids set aside. */
async function both(query: string, variables: unknown, headers: Record<string, string> = {}) {
  received.length = 0;
  const trusted = await post({ query, variables }, headers);
  const forwarded = received.map((h) => ({
    secret: h[SUBGRAPH_SECRET_HEADER],
    requestId: h['x-request-id'],
  }));
  const server = await post({ query: `${query}\n`, variables }, headers);
  const { requestId, ...rest } = trusted;
  expect(requestId).toBeTruthy();
  for (const f of forwarded) expect(f).toEqual({ secret: 'the-subgraph-secret', requestId });
  return { trusted: rest, server: { ...server, requestId: undefined } };
}

describe('trusted documents at the standalone Apollo gateway', () => {
  const ACCOUNT = {
    agencyId: '1',
    agencyName: 'A',
    bankName: 'B',
    accountNumber: '1',
    accountHolder: 'C',
  };

  it.each(['*/*', 'application/json'])(
    'answers a query as Apollo Server does (accept %s)',
    async (accept) => {
      answer = { status: 200, body: { data: { result: ACCOUNT } } };
      const { trusted, server } = await both(
        documentWith('agencySettlementAccount'),
        { id: '1' },
        { accept },
      );
      expect(trusted).toEqual({ ...server, requestId: undefined });
      expect(trusted).toMatchObject({ status: 200, nosniff: 'nosniff', cache: 'no-store' });
      expect(JSON.parse(trusted.text)).toEqual({ data: { result: ACCOUNT } });
    },
  );

  it('passes a subgraph replay on as Idempotent-Replayed, as Apollo Server does', async () => {
    answer = {
      status: 200,
      body: { data: { result: null } },
      headers: { 'idempotent-replayed': 'true' },
    };
    const profile = documentWith('accountsProfile');
    const { trusted, server } = await both(
      profile,
      { idempotencyKey: 'k-1', input: { accountRef: { handle: 'a' } } },
      { 'idempotency-key': 'k-1' },
    );
    expect(trusted).toEqual(server);
    expect(trusted.replayed).toBe('true');
  });

  it.each([
    ['variables that do not coerce', {}, {}],
    ['an Idempotency-Key that is refused', { id: '1' }, { 'idempotency-key': 'x'.repeat(300) }],
  ])('answers %s with the same status and errors', async (_case, variables, headers) => {
    answer = { status: 200, body: { data: { result: ACCOUNT } } };
    const { trusted, server } = await both(
      documentWith('agencySettlementAccount'),
      variables,
      headers,
    );
    expect(trusted).toEqual(server);
    expect(JSON.parse(trusted.text)).toHaveProperty('errors');
  });

  it.each([
    [
      'a catalogue error',
      200,
      {
        data: { result: null },
        errors: [
          { message: 'No such account', path: ['result'], extensions: { code: 'NOT_FOUND' } },
        ],
      },
    ],
    ['a subgraph that fails', 500, { message: 'boom' }],
  ])('answers %s of the subgraph as Apollo Server does', async (_case, status, body) => {
    answer = { status, body };
    const { trusted, server } = await both(documentWith('agencySettlementAccount'), { id: '1' });
    expect(trusted).toEqual(server);
  });

  it("runs a trusted document sent by its id (Apollo's persisted-query hash) alone", async () => {
    answer = { status: 200, body: { data: { result: ACCOUNT } } };
    const query = documentWith('agencySettlementAccount');
    const sha256Hash = createHash('sha256').update(query).digest('hex');
    const byHash = await post({
      variables: { id: '1' },
      extensions: { persistedQuery: { version: 1, sha256Hash } },
    });
    expect(byHash.status).toBe(200);
    expect(JSON.parse(byHash.text)).toEqual({ data: { result: ACCOUNT } });
    // An id that is no trusted document's is Apollo Server's to answer (not found).
    const unknown = await post({
      extensions: { persistedQuery: { version: 1, sha256Hash: '0'.repeat(64) } },
    });
    expect(unknown.text).toContain('PERSISTED_QUERY_NOT_FOUND');
  });
});

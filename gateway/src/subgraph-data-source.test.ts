import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadGatewayConfig } from './config.js';
import { SubgraphDataSource } from './subgraph-data-source.js';
import { subgraphFetcher } from './subgraph-fetcher.js';

/**
 * Issue 27, third pass: the lean path of the data source (no cache policy to restrict, as the
 * trusted-document executor calls it) sends what Apollo's own `process` sends and answers what
 * it answers, over a real subgraph on loopback: the same headers and body bytes, the same
 * parsed answer (data, errors with paths and extensions, nulls), the same error for a non-2xx
 * status and for a body that is not an object, the replay noted in the context either way.
 */
/** A text with what JSON escapes (quotes, a backslash, a line break), sent as its JSON form. */
const QUERY = '{ a(s: "x\\"y") b\n}';

describe('SubgraphDataSource', () => {
  const seen: { headers: IncomingHttpHeaders; body: string }[] = [];
  const answers: Record<string, { status: number; type: string; body: string; replayed?: true }> = {
    data: { status: 200, type: 'application/json', body: '{"data":{"a":1,"b":null}}' },
    errors: {
      status: 200,
      type: 'application/json',
      body: '{"data":{"x":null},"errors":[{"message":"no","path":["x"],"extensions":{"code":"NOT_FOUND"}}]}',
    },
    replayed: { status: 200, type: 'application/json', body: '{"data":{"a":2}}', replayed: true },
    failed: { status: 503, type: 'application/json', body: '{"message":"down"}' },
    text: { status: 200, type: 'text/plain', body: 'not json' },
  };
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      seen.push({ headers: request.headers, body });
      const answer = answers[request.url!.slice(1)]!;
      response.writeHead(answer.status, {
        'content-type': answer.type,
        ...(answer.replayed ? { 'idempotent-replayed': 'true' } : {}),
      });
      response.end(answer.body);
    });
  });
  const fetcher = subgraphFetcher();
  let base = '';
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await fetcher.close();
    await new Promise((resolve) => server.close(resolve));
  });

  const config = loadGatewayConfig({ SUBGRAPH_SECRET: 'the-subgraph-secret', LOG_LEVEL: 'silent' });

  /** One call; `apollo` restricts a cache policy, which sends it down Apollo's own path. */
  async function call(path: string, apollo: boolean) {
    const source = new SubgraphDataSource(`${base}/${path}`, fetcher.fetcher, config);
    const context = {
      headers: { authorization: 'Bearer t', 'x-request-id': 'r-1', 'x-forwarded-for': undefined },
    } as { headers: Record<string, string | undefined>; replayed?: boolean };
    const restricted: unknown[] = [];
    const incomingRequestContext = {
      overallCachePolicy: apollo
        ? { restrict: (hint: unknown) => restricted.push(hint) }
        : undefined,
    };
    const options = {
      kind: 'incoming operation',
      request: {
        query: QUERY,
        variables: { v: 1, w: null },
        operationName: 'Q',
        http: undefined,
      },
      incomingRequestContext,
      context,
    } as unknown as Parameters<SubgraphDataSource['process']>[0];
    let outcome: unknown;
    try {
      const { http, ...answer } = await source.process(options);
      outcome = { answer, status: http?.status };
    } catch (error) {
      const { message, extensions } = error as { message: string; extensions?: unknown };
      outcome = { message, extensions: JSON.parse(JSON.stringify(extensions ?? null)) as unknown };
    }
    const sent = seen.at(-1)!;
    const headers = Object.fromEntries(
      Object.entries(sent.headers).filter(
        ([name]) => !['host', 'connection', 'content-length'].includes(name),
      ),
    );
    return {
      outcome,
      body: sent.body,
      headers,
      replayed: context.replayed,
      apollo: restricted.length,
    };
  }

  it.each(Object.keys(answers))('answers %s as Apollo’s own path does', async (path) => {
    const lean = await call(path, false);
    const apollo = await call(path, true);
    expect(apollo.apollo).toBe(path === 'failed' || path === 'text' ? 0 : 1);
    expect({ ...lean, apollo: 0 }).toEqual({ ...apollo, apollo: 0 });
    expect(lean.replayed).toBe(path === 'replayed' ? true : undefined);
    expect(lean.headers['x-subgraph-secret']).toBe('the-subgraph-secret');
    expect(lean.body).toBe(
      `{"query":${JSON.stringify(QUERY)},"variables":{"v":1,"w":null},"operationName":"Q"}`,
    );
  });
});

import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DURATION_BUCKETS,
  histogram,
  IDEMPOTENT_REPLAYED_HEADER,
  SUBGRAPH_SECRET_HEADER,
} from '@campaign/platform';
import { startTrustedApolloEngine } from './apollo-trusted.js';
import { loadGatewayConfig } from './config.js';

/**
 * Issue 27: the adapter's Apollo engine runs its trusted documents without Apollo Server's
 * pipeline; every guarantee of that pipeline still holds. The settlement subgraph is simulated
 * on loopback: it records what it is sent and answers what the test sets.
 */
const TOTAL = 'query Total($limit: Int) { settlements(limit: $limit) { total } }';
const TOO_DEEP = '{ settlements { items { id partner { id } } } }';

let answer: { status: number; body: unknown; headers?: Record<string, string> };
const received: { headers: IncomingHttpHeaders; body: { variables?: unknown } }[] = [];
let subgraph: Server;
let engine: Awaited<ReturnType<typeof startTrustedApolloEngine>>;

beforeAll(async () => {
  subgraph = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      received.push({
        headers: request.headers,
        body: JSON.parse(body) as { variables?: unknown },
      });
      response.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
      response.end(JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => subgraph.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(subgraph.address() as AddressInfo).port}/graphql`;
  const config = loadGatewayConfig({
    LENS_SUBGRAPH_URL: url,
    SETTLEMENT_SUBGRAPH_URL: url,
    SUBGRAPH_SECRET: 'the-subgraph-secret',
    GATEWAY_MAX_DEPTH: '3',
    GATEWAY_INTROSPECTION: 'false',
    LOG_LEVEL: 'silent',
  });
  const { createLogger } = await import('@campaign/platform');
  engine = await startTrustedApolloEngine(config, createLogger('test', 'silent'), [
    TOTAL,
    TOO_DEEP,
  ]);
});

afterAll(async () => {
  await engine?.close();
  await new Promise((resolve) => subgraph?.close(resolve));
});

const headers = { 'x-request-id': 'req-1', 'x-forwarded-for': '10.0.0.9' };

/** A module as @apollo/gateway loads it (CommonJS; the patched package reads its exports per call). */
const fromGateway = createRequire(createRequire(import.meta.url).resolve('@apollo/gateway'));

/** What the tracing test uses of @opentelemetry/api (the copy @apollo/gateway loads). */
type Fn = (...args: unknown[]) => unknown;
interface OpenTelemetryApi {
  context: { setGlobalContextManager(manager: object): boolean; disable(): void };
  trace: {
    setGlobalTracerProvider(provider: object): boolean;
    wrapSpanContext(spanContext: unknown): unknown;
    disable(): void;
  };
  ROOT_CONTEXT: unknown;
  INVALID_SPAN_CONTEXT: unknown;
}

/** Counts the calls of a module's function until restored. */
function counted<M extends Record<string, unknown>>(module: M, name: keyof M & string) {
  const original = module[name] as (...args: unknown[]) => unknown;
  const calls = { count: 0, restore: () => Object.assign(module, { [name]: original }) };
  Object.assign(module, { [name]: (...args: unknown[]) => (calls.count++, original(...args)) });
  return calls;
}

describe('the trusted-document engine (Apollo, no Apollo Server pipeline)', () => {
  it('runs a trusted document: variables, secret and forwarded headers reach the subgraph', async () => {
    answer = { status: 200, body: { data: { settlements: { total: 3 } } } };
    received.length = 0;
    const result = await engine.execute(TOTAL, { limit: 5 }, headers);
    expect(result).toEqual({ data: { settlements: { total: 3 } }, replayed: false, status: 200 });
    expect(received).toHaveLength(1);
    expect(received[0]!.body.variables).toEqual({ limit: 5 });
    expect(received[0]!.headers[SUBGRAPH_SECRET_HEADER]).toBe('the-subgraph-secret');
    expect(received[0]!.headers['x-request-id']).toBe('req-1');
    expect(received[0]!.headers['x-forwarded-for']).toBe('10.0.0.9');
  });

  it('sends a subgraph exactly the headers it sent before they became a record (issue 27)', async () => {
    answer = { status: 200, body: { data: { settlements: { total: 3 } } } };
    received.length = 0;
    const all = {
      ...headers,
      authorization: 'Bearer t',
      'x-lens-interface': 'mcp',
      'idempotency-key': 'k-1',
    };
    await engine.execute(TOTAL, {}, all);
    const { host: _host, connection: _connection, ...sent } = received[0]!.headers;
    // Captured from the data source's node-fetch Headers before the change.
    expect(sent).toEqual({
      accept: 'application/json',
      authorization: 'Bearer t',
      'content-length': sent['content-length'],
      'content-type': 'application/json',
      'idempotency-key': 'k-1',
      [SUBGRAPH_SECRET_HEADER]: 'the-subgraph-secret',
      'x-forwarded-for': '10.0.0.9',
      'x-lens-interface': 'mcp',
      'x-request-id': 'req-1',
    });
  });

  it('times the operation by its name, as the Apollo Server plugin does', async () => {
    answer = { status: 200, body: { data: { settlements: { total: 2 } } } };
    await engine.execute(TOTAL, {}, headers);
    const durations = await histogram(
      'graphql_server_operation_duration_seconds',
      '',
      ['graphql_operation_name', 'graphql_operation_type'],
      DURATION_BUCKETS,
    ).get();
    const counted = durations.values.find(
      (v) => v.metricName?.endsWith('_count') && v.labels['graphql_operation_name'] === 'Total',
    );
    expect(counted?.labels['graphql_operation_type']).toBe('query');
    expect(counted?.value).toBeGreaterThanOrEqual(1);
  });

  it('passes a subgraph’s replay mark on', async () => {
    answer = {
      status: 200,
      body: { data: { settlements: { total: 1 } } },
      headers: { [IDEMPOTENT_REPLAYED_HEADER]: 'true' },
    };
    expect((await engine.execute(TOTAL, {}, headers)).replayed).toBe(true);
  });

  it('answers a document over the limits with the validation error, asking no subgraph', async () => {
    received.length = 0;
    const result = await engine.execute(TOO_DEEP, {}, headers);
    expect(result.errors?.[0]?.extensions?.['code']).toBe('GRAPHQL_VALIDATION_FAILED');
    expect(result.data).toBeUndefined();
    expect(received).toEqual([]);
  });

  it('refuses variables that do not coerce as BAD_USER_INPUT, and a bad Idempotency-Key', async () => {
    received.length = 0;
    const variables = await engine.execute(TOTAL, { limit: 'many' }, headers);
    expect(variables.errors?.[0]?.extensions?.['code']).toBe('BAD_USER_INPUT');
    const keyed = await engine.execute(TOTAL, {}, { ...headers, 'idempotency-key': '' });
    expect(keyed.errors?.[0]?.extensions?.['code']).toBe('INVALID_REQUEST');
    expect(received).toEqual([]);
  });

  it('masks an unexpected subgraph error and keeps a catalogue one', async () => {
    answer = {
      status: 200,
      body: { data: null, errors: [{ message: 'relation "settlement" does not exist' }] },
    };
    const unexpected = await engine.execute(TOTAL, {}, headers);
    expect(JSON.stringify(unexpected.errors)).not.toContain('relation');
    expect(unexpected.errors?.[0]?.extensions?.['code']).toBe('INTERNAL_ERROR');
    answer = {
      status: 200,
      body: {
        data: null,
        errors: [{ message: 'No such settlement.', extensions: { code: 'NOT_FOUND' } }],
      },
    };
    const known = await engine.execute(TOTAL, {}, headers);
    expect(known.errors?.[0]).toMatchObject({
      message: 'No such settlement.',
      extensions: { code: 'NOT_FOUND' },
    });
  });

  it('starts no usage-data collection for Apollo (an offline platform calls no third party)', () => {
    expect(process.env['APOLLO_TELEMETRY_DISABLED']).toBe('true');
  });

  it('builds Apollo’s operation of a document once, and shapes each answer anew (patched @apollo/gateway)', async () => {
    const operations = counted(
      fromGateway('@apollo/federation-internals/dist/operations') as Record<string, unknown>,
      'operationFromDocument',
    );
    const contexts = counted(
      fromGateway('./operationContext') as Record<string, unknown>,
      'buildOperationContext',
    );
    try {
      for (const total of [7, 8, 9]) {
        answer = { status: 200, body: { data: { settlements: { total } } } };
        expect((await engine.execute(TOTAL, {}, headers)).data).toEqual({ settlements: { total } });
      }
    } finally {
      operations.restore();
      contexts.restore();
    }
    // TOTAL ran in the tests above: before the patch, each call built both again (3 and 3).
    expect([operations.count, contexts.count]).toEqual([0, 0]);
  });

  it('makes no span or context for Apollo’s steps with tracing off, and all of them with it on (patched)', async () => {
    answer = { status: 200, body: { data: { settlements: { total: 1 } } } };
    const { context, trace, ROOT_CONTEXT, INVALID_SPAN_CONTEXT } = fromGateway(
      '@opentelemetry/api',
    ) as OpenTelemetryApi;
    let entered = 0;
    context.setGlobalContextManager({
      active: () => ROOT_CONTEXT,
      with: (_context: unknown, fn: Fn, self: unknown, ...args: unknown[]) => (
        entered++,
        fn.call(self, ...args)
      ),
      bind: (_context: unknown, target: unknown) => target,
      enable() {
        return this;
      },
      disable() {
        return this;
      },
    });
    const names: string[] = [];
    const span = () => trace.wrapSpanContext(INVALID_SPAN_CONTEXT);
    try {
      await engine.execute(TOTAL, {}, headers);
      // Before the patch, the no-op tracer entered a context for each of its five spans.
      expect(entered).toBe(0);
      trace.setGlobalTracerProvider({
        getTracer: () => ({
          startSpan: (name: string) => (names.push(name), span()),
          startActiveSpan: (name: string, ...rest: unknown[]) => {
            names.push(name);
            return (rest.at(-1) as Fn)(span());
          },
        }),
      });
      expect((await engine.execute(TOTAL, {}, headers)).data).toEqual({
        settlements: { total: 1 },
      });
    } finally {
      trace.disable();
      context.disable();
    }
    expect(names).toEqual([
      'gateway.request',
      'gateway.validate',
      'gateway.execute',
      'gateway.fetch',
      'gateway.postprocessing',
    ]);
  });

  it('runs no document it was not given', async () => {
    await expect(engine.execute('{ settlements { total } }', {}, headers)).rejects.toThrow(
      /not a trusted document/,
    );
  });
});

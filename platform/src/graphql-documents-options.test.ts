import { buildSubgraphSchema } from '@apollo/subgraph';
import { context, trace } from '@opentelemetry/api';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import Fastify from 'fastify';
import { parse } from 'graphql';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { subgraphDocuments, type SubgraphDocumentsOptions } from './graphql-documents.js';
import { SUBGRAPH_LIMITS } from './graphql-limits.js';
import { RequestBoundContextManager } from './telemetry-context.js';

/** The lean path alone (graphql-documents.test.ts compares it with Apollo Server's): its options. */

const schema = buildSubgraphSchema([
  {
    typeDefs: parse('type Item { id: ID! } type Query { item(id: ID!): Item }'),
    resolvers: { Query: { item: (_: unknown, { id }: { id: string }) => ({ id }) } },
  },
]);

const lean = (options: Partial<SubgraphDocumentsOptions<object>>) =>
  subgraphDocuments({
    schema,
    validationRules: [],
    maxTokens: SUBGRAPH_LIMITS.maxTokens,
    introspection: true,
    log: pino({ level: 'silent' }),
    context: async () => ({}),
    ...options,
  });

describe("a subgraph's lean path", () => {
  it("puts the operation's name and type on the request's span when the process traces", async () => {
    const exporter = new InMemorySpanExporter();
    const tracer = new BasicTracerProvider({
      spanProcessors: [new SimpleSpanProcessor(exporter)],
    }).getTracer('http');
    const manager = new RequestBoundContextManager();
    context.setGlobalContextManager(manager.enable());
    try {
      const documents = lean({ recording: { metrics: false, tracing: true } });
      const app = Fastify();
      const span = tracer.startSpan('POST /graphql');
      // As the HTTP instrumentation does: the request's handling runs in its span's context.
      app.addHook('preHandler', (_request, _reply, done) =>
        context.with(trace.setSpan(context.active(), span), done),
      );
      app.post(
        '/graphql',
        async (request, reply) => (await documents.answer(request, reply)) ?? '',
      );
      const answer = await app.inject({
        method: 'POST',
        url: '/graphql',
        payload: { query: 'query Traced { item(id: "1") { id } }' },
      });
      span.end();
      expect(answer.json()).toEqual({ data: { item: { id: '1' } } });
      expect(exporter.getFinishedSpans()[0]!.attributes).toMatchObject({
        'graphql.operation.name': 'Traced',
        'graphql.operation.type': 'query',
      });
      await app.close();
    } finally {
      context.disable();
    }
  });

  it('keeps a bounded number of texts; past it, a new text goes to Apollo Server', async () => {
    const documents = lean({ maxDocuments: 1 });
    const app = Fastify();
    app.post(
      '/graphql',
      async (request, reply) => (await documents.answer(request, reply)) ?? 'full',
    );
    const ask = async (text: string) =>
      (await app.inject({ method: 'POST', url: '/graphql', payload: { query: text } })).body;
    expect(await ask('{ item(id: "1") { id } }')).toContain('"id":"1"');
    expect(await ask('{ item(id: "2") { id } }')).toBe('full');
    expect(await ask('{ item(id: "1") { id } }')).toContain('"id":"1"');
    await app.close();
  });
});

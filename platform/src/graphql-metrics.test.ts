import { ApolloServer, type BaseContext } from '@apollo/server';
import { context, trace } from '@opentelemetry/api';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import client from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphqlOperationObserver, graphqlOperationPlugins } from './graphql-metrics.js';
import { RequestBoundContextManager } from './telemetry-context.js';

const exporter = new InMemorySpanExporter();
const tracer = new BasicTracerProvider({
  spanProcessors: [new SimpleSpanProcessor(exporter)],
}).getTracer('http');
const manager = new RequestBoundContextManager();

beforeAll(() => context.setGlobalContextManager(manager.enable()));
afterAll(() => context.disable());

/** One named mutation through a server with `plugins`, inside a request's server span. */
async function serverSpanOf(on: { metrics: boolean; tracing: boolean }) {
  const server = new ApolloServer<BaseContext>({
    typeDefs: 'type Query { ok: Boolean } type Mutation { charge: Boolean }',
    resolvers: { Mutation: { charge: () => true } },
    plugins: graphqlOperationPlugins(on),
  });
  await server.start();
  exporter.reset();
  const span = tracer.startSpan('POST /graphql');
  await context.with(trace.setSpan(context.active(), span), () =>
    server.executeOperation({ query: 'mutation ChargeCredits { charge }' }),
  );
  span.end();
  await server.stop();
  return exporter.getFinishedSpans()[0]!;
}

/** How many ChargeCredits operations the duration histogram has counted. */
const observed = async () => {
  const name = 'graphql_server_operation_duration_seconds';
  if (!client.register.getSingleMetric(name)) return 0;
  const text = await client.register.getSingleMetricAsString(name);
  const count = /_count\{graphql_operation_name="ChargeCredits",[^}]*\} (\d+)/.exec(text);
  return Number(count?.[1] ?? 0);
};

describe('GraphQL operations: name and type on the span, duration histogram', () => {
  it('puts the operation name and type on the span with metrics off (METRICS_ENABLED=false)', async () => {
    const span = await serverSpanOf({ metrics: false, tracing: true });
    expect(span.attributes['graphql.operation.name']).toBe('ChargeCredits');
    expect(span.attributes['graphql.operation.type']).toBe('mutation');
  });

  it('with metrics on and tracing on, both', async () => {
    const before = await observed();
    const span = await serverSpanOf({ metrics: true, tracing: true });
    expect(span.attributes['graphql.operation.name']).toBe('ChargeCredits');
    expect(await observed()).toBe(before + 1);
  });

  it('the default (metrics on, tracing off) registers no hook but the histogram observe', async () => {
    const [plugin] = graphqlOperationPlugins({ metrics: true, tracing: false });
    const listener = await plugin!.requestDidStart?.(Object.create(null));
    expect(Object.keys(listener ?? {})).toEqual(['willSendResponse']);
    const before = await observed();
    const span = await serverSpanOf({ metrics: true, tracing: false });
    expect(span.attributes['graphql.operation.name']).toBeUndefined();
    expect(await observed()).toBe(before + 1);
  });

  it('with neither, no plugin at all', () => {
    expect(graphqlOperationPlugins({ metrics: false, tracing: false })).toEqual([]);
    expect(graphqlOperationObserver({ metrics: false, tracing: false })).toBeNull();
  });

  it("the observer of the adapter's trusted documents names the span with metrics off", async () => {
    const observe = graphqlOperationObserver({ metrics: false, tracing: true })!;
    exporter.reset();
    const before = await observed();
    const span = tracer.startSpan('POST /api/lens/v1/accounts/profile');
    context.with(trace.setSpan(context.active(), span), () => {
      observe.resolved('ChargeCredits', 'mutation');
      observe.done('ChargeCredits', 'mutation', performance.now());
    });
    span.end();
    const [ended] = exporter.getFinishedSpans();
    expect(ended!.attributes['graphql.operation.name']).toBe('ChargeCredits');
    expect(ended!.attributes['graphql.operation.type']).toBe('mutation');
    expect(await observed()).toBe(before);
  });
});

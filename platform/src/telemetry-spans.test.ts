import { context, trace } from '@opentelemetry/api';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RequestBoundContextManager } from './telemetry-context.js';
import { passingThrough, PASSED_THROUGH_SPANS } from './telemetry-spans.js';

const exporter = new InMemorySpanExporter();
const provider = passingThrough(
  new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }),
);
const manager = new RequestBoundContextManager();

beforeAll(() => context.setGlobalContextManager(manager.enable()));
afterAll(() => context.disable());

/** What Apollo gateway does for one operation, with its own tracer's name. */
async function gatewayOperation(): Promise<void> {
  const gateway = provider.getTracer('apollo/gateway-js');
  await gateway.startActiveSpan('gateway.request', async (request) => {
    gateway.startActiveSpan('gateway.validate', (validate) => validate.end());
    await gateway.startActiveSpan('gateway.execute', async (execute) => {
      await gateway.startActiveSpan('gateway.fetch', async (fetch) => {
        await Promise.resolve();
        fetch.end();
      });
      execute.setAttribute('ignored', true);
      execute.end();
    });
    request.end();
  });
}

describe('passingThrough', () => {
  it("makes none of the gateway's request, validate, execute and post-processing spans", async () => {
    exporter.reset();
    const server = provider.getTracer('http').startSpan('POST /graphql');
    await context.with(trace.setSpan(context.active(), server), gatewayOperation);
    server.end();
    const spans = exporter.getFinishedSpans();
    expect(spans.map((s) => s.name).sort()).toEqual(['POST /graphql', 'gateway.fetch']);
    // The fetch hangs under the operation's span: the trace has no hole.
    const fetch = spans.find((s) => s.name === 'gateway.fetch')!;
    expect(fetch.parentSpanContext?.spanId).toBe(server.spanContext().spanId);
    expect(fetch.spanContext().traceId).toBe(server.spanContext().traceId);
  });

  it('keeps the plan and each fetch, and every span of other tracers', () => {
    expect(PASSED_THROUGH_SPANS.get('apollo/gateway-js')?.has('gateway.plan')).toBe(false);
    expect(PASSED_THROUGH_SPANS.get('apollo/gateway-js')?.has('gateway.fetch')).toBe(false);
    exporter.reset();
    provider.getTracer('campaign-platform').startSpan('gateway.request').end();
    expect(exporter.getFinishedSpans().map((s) => s.name)).toEqual(['gateway.request']);
  });

  it('runs a passed-through span given its own context in that context', () => {
    exporter.reset();
    const parent = provider.getTracer('http').startSpan('parent');
    const given = trace.setSpan(context.active(), parent);
    const seen = provider
      .getTracer('apollo/gateway-js')
      .startActiveSpan('gateway.execute', {}, given, (span) => ({
        active: trace.getActiveSpan()?.spanContext().spanId,
        own: span.spanContext().spanId,
      }));
    expect(seen).toEqual({ active: parent.spanContext().spanId, own: parent.spanContext().spanId });
    parent.end();
  });
});

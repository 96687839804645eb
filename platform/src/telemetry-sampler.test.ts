import { ROOT_CONTEXT, SpanKind, trace, TraceFlags } from '@opentelemetry/api';
import { SamplingDecision } from '@opentelemetry/sdk-trace-base';
import { describe, expect, it } from 'vitest';
import { withoutUnneededSpans } from './telemetry-sampler.js';

const traceId = '0af7651916cd43dd8448eb211c80319c';
const parent = trace.setSpanContext(ROOT_CONTEXT, {
  traceId,
  spanId: 'b7ad6b7169203331',
  traceFlags: TraceFlags.SAMPLED,
});
const decide = (name: string, context = parent) =>
  withoutUnneededSpans().shouldSample(context, traceId, name, SpanKind.INTERNAL, {}, []).decision;

describe('withoutUnneededSpans', () => {
  it("does not record the gateway's validate and post-processing leaves", () => {
    expect(decide('gateway.validate')).toBe(SamplingDecision.NOT_RECORD);
    expect(decide('gateway.postprocessing')).toBe(SamplingDecision.NOT_RECORD);
  });

  it('records the plan, each fetch and everything else as the delegate says', () => {
    expect(decide('gateway.plan')).toBe(SamplingDecision.RECORD_AND_SAMPLED);
    expect(decide('gateway.fetch')).toBe(SamplingDecision.RECORD_AND_SAMPLED);
    expect(decide('POST /graphql', ROOT_CONTEXT)).toBe(SamplingDecision.RECORD_AND_SAMPLED);
  });
});

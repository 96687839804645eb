import { trace, type Attributes, type Context, type Link, type SpanKind } from '@opentelemetry/api';
import {
  ParentBasedSampler,
  AlwaysOnSampler,
  SamplingDecision,
  type Sampler,
  type SamplingResult,
} from '@opentelemetry/sdk-trace-base';

/**
 * Spans a trace does not need, created inside a traced request by a library we cannot configure
 * (issue 26, cost): Apollo gateway's `gateway.validate` and `gateway.postprocessing` are leaves
 * (no child, nothing propagated from them) that time in-memory steps already inside
 * `gateway.request`. Each recorded span cost the gateway about as much as a subgraph fetch's
 * (creation, context, attributes, export); dropping these two is about a quarter of its spans.
 * `gateway.plan` and `gateway.fetch` stay: the issue asks for the plan and each fetch.
 */
export const UNRECORDED_SPANS: ReadonlySet<string> = new Set([
  'gateway.validate',
  'gateway.postprocessing',
]);

/**
 * The sampler the SDK would pick from `OTEL_TRACES_SAMPLER` (`delegate`; the SDK's default,
 * parent-based always-on, when unset), except that the spans above are never recorded. Only
 * leaves are dropped, so no child ever finds an unsampled parent.
 */
export function withoutUnneededSpans(delegate?: Sampler): Sampler {
  const inner = delegate ?? new ParentBasedSampler({ root: new AlwaysOnSampler() });
  const drop: SamplingResult = { decision: SamplingDecision.NOT_RECORD };
  return {
    shouldSample(
      context: Context,
      traceId: string,
      name: string,
      kind: SpanKind,
      attributes: Attributes,
      links: Link[],
    ) {
      if (UNRECORDED_SPANS.has(name) && trace.getSpanContext(context)) return drop;
      return inner.shouldSample(context, traceId, name, kind, attributes, links);
    },
    toString: () => `WithoutUnneededSpans{${inner.toString()}}`,
  };
}

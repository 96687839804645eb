import {
  context,
  propagation,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Link,
  type Span,
} from '@opentelemetry/api';
import { getRPCMetadata, RPCType } from '@opentelemetry/core';
import { tracingEnabled } from './telemetry.js';

/**
 * The small hooks services call around work that tracing cannot follow by itself (issue 26).
 * With tracing off each returns at its first line: no span, no context lookup, no allocation.
 */

const tracer = () => trace.getTracer('campaign-platform');

/**
 * The W3C `traceparent` of the active span, to be stored with work done later (an outbox row, a
 * job); null when tracing is off or nothing is being traced.
 */
export function currentTraceparent(): string | null {
  if (!tracingEnabled()) return null;
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  return carrier['traceparent'] ?? null;
}

/** Adds attributes (an operation id, a settlement id) to the active span, when there is one. */
export function annotateSpan(attributes: Attributes): void {
  if (!tracingEnabled()) return;
  trace.getActiveSpan()?.setAttributes(attributes);
}

function settled<T>(span: Span, work: Promise<T>): Promise<T> {
  return work.then(
    (value) => {
      span.end();
      return value;
    },
    (error: unknown) => {
      span.recordException(error instanceof Error ? error : String(error));
      span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
      throw error;
    },
  );
}

/** Runs `work` in a span of its own (a call tracing cannot see: SMTP), child of the active one. */
export function inSpan<T>(
  name: string,
  options: { kind?: SpanKind; attributes?: Attributes },
  work: () => Promise<T>,
): Promise<T> {
  if (!tracingEnabled()) return work();
  return tracer().startActiveSpan(name, options, (span) => settled(span, work()));
}

/**
 * Runs work done later (a job, an outbox delivery) in a span that continues the trace of the
 * request that queued it (`traceparent` stored with the work), and links to it as well, so a
 * trace viewer shows it under that request however long after it ran. Without a stored context
 * the span starts a trace of its own.
 */
export function inQueuedSpan<T>(
  name: string,
  traceparent: string | null | undefined,
  attributes: Attributes,
  work: () => Promise<T>,
): Promise<T> {
  if (!tracingEnabled()) return work();
  const queuedBy = traceparent ? propagation.extract(ROOT_CONTEXT, { traceparent }) : ROOT_CONTEXT;
  const origin = trace.getSpanContext(queuedBy);
  const links: Link[] = origin ? [{ context: origin }] : [];
  return tracer().startActiveSpan(
    name,
    { kind: SpanKind.CONSUMER, attributes, links },
    queuedBy,
    (span) => settled(span, work()),
  );
}

/**
 * Gives the HTTP server span its route template (`http.route`, and the span name
 * `POST /api/admin/settlements/:id/status`, as the semantic conventions name server spans).
 */
export function routeServerSpan(route: string | undefined): void {
  if (!tracingEnabled() || !route) return;
  const rpc = getRPCMetadata(context.active());
  if (rpc?.type === RPCType.HTTP) rpc.route = route;
}

/** `trace_id` and `span_id` of the active span, for every log line of a traced request. */
export function logTraceFields(): Record<string, string> {
  if (!tracingEnabled()) return {};
  const span = trace.getActiveSpan();
  if (!span) return {};
  const { traceId, spanId } = span.spanContext();
  return { trace_id: traceId, span_id: spanId };
}

export { SpanKind } from '@opentelemetry/api';

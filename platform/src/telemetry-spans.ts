import {
  context as contexts,
  INVALID_SPAN_CONTEXT,
  trace,
  type ProxyTracerProvider,
  type Context,
  type Span,
  type SpanOptions,
  type Tracer,
  type TracerOptions,
  type TracerProvider,
} from '@opentelemetry/api';

/**
 * Spans a library opens that a trace does not need (issue 26, cost), by tracer (instrumentation
 * scope) name. Apollo gateway opens `gateway.request` around every operation, `gateway.validate`
 * and `gateway.execute` inside it, and `gateway.postprocessing` after the fetches, and cannot be
 * told to skip any: the request's HTTP server span already is the operation's span (it carries
 * `graphql.operation.name` and `.type`, graphql-metrics.ts), and the others time in-memory steps
 * inside it. `gateway.plan` and each `gateway.fetch` stay: the issue asks for them (one span per
 * subgraph fetch).
 */
export const PASSED_THROUGH_SPANS: ReadonlyMap<string, ReadonlySet<string>> = new Map([
  [
    'apollo/gateway-js',
    new Set(['gateway.request', 'gateway.validate', 'gateway.execute', 'gateway.postprocessing']),
  ],
]);

/**
 * A span that is not made: the library gets a non-recording span carrying its parent's context,
 * and its work runs in the parent's context unchanged, so whatever it starts inside (a plan, a
 * fetch) is the parent's child and the trace has no hole. Nothing is allocated but this wrapper,
 * and no context is entered (a sampler's "not recorded" would still cost a context switch, and
 * its children would find an unsampled parent).
 */
const parentOf = (context: Context): Span =>
  trace.wrapSpanContext(trace.getSpanContext(context) ?? INVALID_SPAN_CONTEXT);

class PassingThroughTracer implements Tracer {
  constructor(
    private readonly inner: Tracer,
    private readonly skipped: ReadonlySet<string>,
  ) {}

  startSpan(name: string, options?: SpanOptions, context?: Context): Span {
    if (!this.skipped.has(name)) return this.inner.startSpan(name, options, context);
    return parentOf(context ?? contexts.active());
  }

  startActiveSpan<F extends (span: Span) => unknown>(name: string, fn: F): ReturnType<F>;
  startActiveSpan<F extends (span: Span) => unknown>(
    name: string,
    options: SpanOptions,
    fn: F,
  ): ReturnType<F>;
  startActiveSpan<F extends (span: Span) => unknown>(
    name: string,
    options: SpanOptions,
    context: Context,
    fn: F,
  ): ReturnType<F>;
  startActiveSpan<F extends (span: Span) => unknown>(
    name: string,
    ...args: [F] | [SpanOptions, F] | [SpanOptions, Context, F]
  ): ReturnType<F> {
    if (!this.skipped.has(name)) {
      // By arity, not through a bound copy and a spread: the gateway calls this for every
      // plan and fetch (issue 26, cost).
      const inner = this.inner;
      if (args.length === 1) return inner.startActiveSpan(name, args[0]);
      if (args.length === 2) return inner.startActiveSpan(name, args[0], args[1]);
      return inner.startActiveSpan(name, args[0], args[1], args[2]);
    }
    if (args.length === 3) {
      const [, context, fn] = args;
      return contexts.with(context, () => fn(parentOf(context))) as ReturnType<F>;
    }
    const fn = args[args.length - 1] as F;
    return fn(parentOf(contexts.active())) as ReturnType<F>;
  }
}

class PassingThroughProvider implements TracerProvider {
  constructor(
    private readonly inner: TracerProvider,
    private readonly skipped: ReadonlyMap<string, ReadonlySet<string>>,
  ) {}

  getTracer(name: string, version?: string, options?: TracerOptions): Tracer {
    const tracer = this.inner.getTracer(name, version, options);
    const skipped = this.skipped.get(name);
    return skipped ? new PassingThroughTracer(tracer, skipped) : tracer;
  }
}

/** `provider`, except that the spans of `skipped` (by tracer name) are passed through. */
export function passingThrough(
  provider: TracerProvider,
  skipped: ReadonlyMap<string, ReadonlySet<string>> = PASSED_THROUGH_SPANS,
): TracerProvider {
  return new PassingThroughProvider(provider, skipped);
}

/**
 * Puts the pass-through in front of the provider the SDK registered globally (the API's proxy
 * hands each library's tracer out of its delegate when the library first makes a span, so this
 * must run right after the SDK starts, before any request).
 */
export function passThroughUnneededSpans(): void {
  const global = trace.getTracerProvider();
  // The API's global is its proxy (by shape: another copy of the API has another class).
  if ('setDelegate' in global && 'getDelegate' in global) {
    const proxy = global as ProxyTracerProvider;
    proxy.setDelegate(passingThrough(proxy.getDelegate()));
  }
}

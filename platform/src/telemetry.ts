import { IncomingMessage } from 'node:http';
import { preferStableSemconv, telemetrySettings } from './config.js';
import { redactedQuery, redactedUrl, sanitizedSql } from './telemetry-redaction.js';
import { runService, type Stoppable } from './service-runner.js';

/**
 * OpenTelemetry tracing for one service process (issue 26). Imported by each service's main.ts
 * before anything else (`@campaign/platform/telemetry`), so that the SDK's module hooks see
 * fastify, node-postgres and undici load. Tracing is on when an OTLP endpoint is configured and
 * the SDK is not disabled, by the standard variables; off, nothing of the SDK is even loaded and
 * the helpers of trace-context.ts return at their first line.
 */

let enabled = false;

/** Whether this process records spans: read on every hot-path helper, so it is a plain flag. */
export const tracingEnabled = (): boolean => enabled;

/** Tracing is wanted: an OTLP endpoint (general or for traces) and the SDK not disabled. */
export function tracingWanted(env?: Record<string, string | undefined>): boolean {
  const parsed = telemetrySettings(env);
  const endpoint = parsed.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT || parsed.OTEL_EXPORTER_OTLP_ENDPOINT;
  return Boolean(endpoint) && !parsed.OTEL_SDK_DISABLED;
}

export interface Telemetry {
  readonly tracing: boolean;
  /** Sends the spans still buffered (a stop must not lose the last requests' traces). */
  shutdown(): Promise<void>;
}

/** Requests nobody needs a trace of: probes and scrapes, every few seconds. */
const UNTRACED_PATHS = new Set(['/healthz', '/readyz', '/metrics']);

/**
 * Starts the SDK when tracing is wanted. `service` is the default `service.name` (DESIGN.md 7:
 * rest-adapter, gateway, lens, settlement); `OTEL_SERVICE_NAME` and `OTEL_RESOURCE_ATTRIBUTES`
 * override it as the specification says. The exporter, its protocol (`http/protobuf`,
 * `http/json`), the sampler and the batch settings are the SDK's own reading of the standard
 * `OTEL_*` variables. Metrics stay Prometheus (`/metrics`) and logs stay stdout: the SDK's own
 * metric and log pipelines are not started.
 */
export async function startTelemetry(
  service: string,
  env?: Record<string, string | undefined>,
): Promise<Telemetry> {
  if (!tracingWanted(env)) return { tracing: false, shutdown: async () => {} };
  const parsed = telemetrySettings(env);
  preferStableSemconv(parsed);
  const [sdk, contexts, spans, hops, http, undici, pg] = await Promise.all([
    import('@opentelemetry/sdk-node'),
    import('./telemetry-context.js'),
    import('./telemetry-spans.js'),
    import('./telemetry-hops.js'),
    import('@opentelemetry/instrumentation-http'),
    import('@opentelemetry/instrumentation-undici'),
    import('@opentelemetry/instrumentation-pg'),
  ]);
  const node = new sdk.NodeSDK({
    ...(parsed.OTEL_SERVICE_NAME ? {} : { serviceName: service }),
    metricReaders: [],
    logRecordProcessors: [],
    contextManager: new contexts.RequestBoundContextManager(),
    instrumentations: [
      new http.HttpInstrumentation({
        ignoreIncomingRequestHook: (request) =>
          UNTRACED_PATHS.has((request.url ?? '').split('?')[0] ?? ''),
        // Every outgoing call of the platform goes through undici (node's fetch or a Pool).
        disableOutgoingRequestInstrumentation: true,
        // Query values (an OAuth state, a date range) never reach a span.
        requestHook: (span, request) => {
          const query = request instanceof IncomingMessage ? request.url?.split('?')[1] : undefined;
          if (query !== undefined) span.setAttribute('url.query', redactedQuery(query));
        },
      }),
      new undici.UndiciInstrumentation({
        requireParentforSpans: true,
        // Calls between our services are timed by the next service's server span; they only
        // carry the trace context (telemetry-hops.ts).
        ignoreRequestHook: (request) => hops.isInternalHop(request),
        // Query values and path tokens never reach a span.
        requestHook: (span, request) => {
          span.setAttribute('url.full', redactedUrl(`${request.origin}${request.path}`));
          const query = request.path.split('?')[1];
          if (query !== undefined) span.setAttribute('url.query', redactedQuery(query));
        },
      }),
      new pg.PgInstrumentation({
        requireParentSpan: true,
        enhancedDatabaseReporting: false,
        ignoreConnectSpans: true,
        // MikroORM's execute inlines its parameters into the text: such a statement is shown
        // with each literal replaced by `?`, never with the values it carried.
        requestHook: (span, info) => {
          if (!info.query.values?.length)
            span.setAttribute('db.query.text', sanitizedSql(info.query.text));
        },
      }),
    ],
  });
  node.start();
  spans.passThroughUnneededSpans();
  const stopPropagating = hops.propagateOnInternalHops();
  enabled = true;
  return {
    tracing: true,
    shutdown: async () => {
      enabled = false;
      stopPropagating();
      await node.shutdown().catch(() => undefined);
    },
  };
}

/**
 * A service process's whole main: tracing first (`service` as above), then `runService(name,
 * start)`, which stops the service before the last spans are sent. `start` imports the service's
 * modules itself, so that the SDK's hooks see fastify, node-postgres and undici load.
 */
export async function runTracedService(
  service: string,
  name: string,
  start: () => Promise<Stoppable>,
): Promise<void> {
  const telemetry = await startTelemetry(service);
  await runService(name, start, { close: telemetry.shutdown });
}

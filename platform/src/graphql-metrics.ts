import type { ApolloServerPlugin, BaseContext, GraphQLRequestListener } from '@apollo/server';
import { trace } from '@opentelemetry/api';
import { boundedLabel, DURATION_BUCKETS, histogram, metricsEnabled } from './metrics.js';
import { tracingEnabled } from './telemetry.js';

const operationName = boundedLabel();

/** What the process records of operations (METRICS_ENABLED, and whether it traces). */
export interface OperationRecording {
  metrics: boolean;
  tracing: boolean;
}

const recordingNow = (): OperationRecording => ({
  metrics: metricsEnabled(),
  tracing: tracingEnabled(),
});

const nothing = () => undefined;

/**
 * What a GraphQL server records of each operation, by what the process has on (issue 26): with
 * tracing, its name and type on the request's span (OpenTelemetry's `graphql.operation.*`
 * attributes) once the operation is known, whatever the metrics setting; with metrics, its
 * duration by operation name and type (`graphql_server_operation_duration_seconds`, at the
 * gateway and each subgraph) once it is answered. Null when neither is on. Used as is by a server
 * that runs operations without Apollo Server's pipeline (the REST adapter's trusted documents,
 * gateway/src/apollo-trusted.ts). Names come from callers, so the label is capped (boundedLabel).
 */
export function graphqlOperationObserver(on: OperationRecording = recordingNow()) {
  if (!on.metrics && !on.tracing) return null;
  const duration = on.metrics
    ? histogram(
        'graphql_server_operation_duration_seconds',
        'Duration of GraphQL operations, by operation name and type.',
        ['graphql_operation_name', 'graphql_operation_type'],
        DURATION_BUCKETS,
      )
    : null;
  return {
    resolved: on.tracing
      ? (name: string | null | undefined, type: string): void => {
          trace.getActiveSpan()?.setAttributes({
            'graphql.operation.name': name ?? '',
            'graphql.operation.type': type,
          });
        }
      : nothing,
    done: duration
      ? (name: string | null | undefined, type: string, started: number): void => {
          duration.observe(
            {
              graphql_operation_name: operationName(name ?? 'anonymous'),
              graphql_operation_type: type,
            },
            (performance.now() - started) / 1000,
          );
        }
      : nothing,
  };
}

/**
 * The observer as Apollo Server plugins. A hook whose part is off is not registered at all, so
 * the default (metrics on, tracing off) does no work per request beyond the histogram's observe;
 * a request that never resolved an operation (it did not parse or validate) is not an operation
 * and is counted by the HTTP histogram only.
 */
export function graphqlOperationPlugins<C extends BaseContext>(
  on: OperationRecording = recordingNow(),
): ApolloServerPlugin<C>[] {
  const observe = graphqlOperationObserver(on);
  if (!observe) return [];
  const listener: GraphQLRequestListener<C> = {};
  if (on.tracing)
    listener.didResolveOperation = async ({ operationName: name, operation }) =>
      observe.resolved(name, operation?.operation ?? '');
  if (!on.metrics) return [{ requestDidStart: async () => listener }];
  return [
    {
      async requestDidStart() {
        const started = performance.now();
        return {
          ...listener,
          async willSendResponse({ operationName: name, operation }) {
            if (operation) observe.done(name, operation.operation, started);
          },
        };
      },
    },
  ];
}

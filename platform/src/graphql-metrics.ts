import type { ApolloServerPlugin, BaseContext, GraphQLRequestListener } from '@apollo/server';
import { trace } from '@opentelemetry/api';
import { boundedLabel, DURATION_BUCKETS, histogram, metricsEnabled } from './metrics.js';
import { tracingEnabled } from './telemetry.js';

const operationName = boundedLabel();

/**
 * What a GraphQL server records of each operation, by what the process has on (issue 26):
 * with metrics, its duration by operation name and type (`graphql_server_operation_duration_
 * seconds`, at the gateway and each subgraph); with tracing, its name and type on the request's
 * span (OpenTelemetry's `graphql.operation.*` attributes), whatever the metrics setting. A hook
 * whose part is off is not registered at all, so the default (metrics on, tracing off) does no
 * work per request beyond the histogram's observe. Names come from callers, so the label is
 * capped (boundedLabel); a request that never resolved an operation (it did not parse or
 * validate) is not an operation and is counted by the HTTP histogram only.
 */
export function graphqlOperationPlugins<C extends BaseContext>(
  on: { metrics: boolean; tracing: boolean } = {
    metrics: metricsEnabled(),
    tracing: tracingEnabled(),
  },
): ApolloServerPlugin<C>[] {
  const listener: GraphQLRequestListener<C> = {};
  if (on.tracing)
    listener.didResolveOperation = async ({ operationName: name, operation }) => {
      trace.getActiveSpan()?.setAttributes({
        'graphql.operation.name': name ?? '',
        'graphql.operation.type': operation?.operation ?? '',
      });
    };
  if (!on.metrics) return on.tracing ? [{ requestDidStart: async () => listener }] : [];
  const duration = histogram(
    'graphql_server_operation_duration_seconds',
    'Duration of GraphQL operations, by operation name and type.',
    ['graphql_operation_name', 'graphql_operation_type'],
    DURATION_BUCKETS,
  );
  return [
    {
      async requestDidStart() {
        const started = performance.now();
        return {
          ...listener,
          async willSendResponse({ operationName: name, operation }) {
            if (!operation) return;
            duration.observe(
              {
                graphql_operation_name: operationName(name ?? 'anonymous'),
                graphql_operation_type: operation.operation,
              },
              (performance.now() - started) / 1000,
            );
          },
        };
      },
    },
  ];
}

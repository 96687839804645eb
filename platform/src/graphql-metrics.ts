import type { ApolloServerPlugin, BaseContext } from '@apollo/server';
import { boundedLabel, DURATION_BUCKETS, histogram } from './metrics.js';
import { annotateSpan } from './trace-context.js';

const operationName = boundedLabel();

/**
 * GraphQL operation durations by operation name and type, at the gateway and each subgraph
 * (`graphql_server_operation_duration_seconds`), and the operation's name and type on the
 * request's span (OpenTelemetry's `graphql.operation.*` attributes). Names come from callers, so
 * the label is capped (boundedLabel); a request that never resolved an operation (it did not
 * parse or validate) is not an operation and is counted by the HTTP histogram only.
 */
export function graphqlOperationMetrics<C extends BaseContext>(): ApolloServerPlugin<C> {
  const observe = graphqlOperationObserver();
  return {
    async requestDidStart() {
      const started = performance.now();
      return {
        async didResolveOperation({ operationName: name, operation }) {
          observe.resolved(name, operation?.operation ?? '');
        },
        async willSendResponse({ operationName: name, operation }) {
          if (operation) observe.done(name, operation.operation, started);
        },
      };
    },
  };
}

/**
 * The plugin's two steps for a server that runs operations without Apollo Server's pipeline (the
 * REST adapter's trusted documents, gateway/src/apollo-trusted.ts): the span's attributes once
 * the operation is known, the duration once it is answered.
 */
export function graphqlOperationObserver() {
  const duration = histogram(
    'graphql_server_operation_duration_seconds',
    'Duration of GraphQL operations, by operation name and type.',
    ['graphql_operation_name', 'graphql_operation_type'],
    DURATION_BUCKETS,
  );
  return {
    resolved(name: string | null | undefined, type: string): void {
      annotateSpan({ 'graphql.operation.name': name ?? '', 'graphql.operation.type': type });
    },
    done(name: string | null | undefined, type: string, started: number): void {
      duration.observe(
        {
          graphql_operation_name: operationName(name ?? 'anonymous'),
          graphql_operation_type: type,
        },
        (performance.now() - started) / 1000,
      );
    },
  };
}

import type { ApolloServerPlugin } from '@apollo/server';
import type { GatewayPlugin } from '@graphql-hive/gateway-runtime';
import { GraphQLError, type DocumentNode } from 'graphql';
import { errorBody } from '@campaign/schema';
import {
  IDEMPOTENCY_KEY_HEADER,
  IDEMPOTENT_REPLAYED_HEADER,
  keyedOperationProblem,
} from '@campaign/platform';

/**
 * The gateway's part of Idempotency-Key (issue 23 item 5): the settlement subgraph keeps the keys
 * and decides replays; the gateway forwards the header (FORWARDED_HEADERS), refuses a keyed
 * request whose shape cannot be kept under one key with a 400 before any subgraph is asked (it
 * alone sees the whole operation: two mutation fields may go to two subgraphs), and passes a
 * subgraph's `Idempotent-Replayed: true` on to the caller.
 */

/** The catalogue's INVALID_REQUEST as a request error: HTTP 400 on either engine. */
const keyRefusal = (message: string) =>
  new GraphQLError(message, {
    extensions: { ...errorBody('INVALID_REQUEST', message), http: { status: 400 } },
  });

/** The 400 for a keyed request whose shape cannot be kept under one key, or null. */
export function refusalOf(
  key: string | null | undefined,
  document: DocumentNode,
  operationName?: string | null,
): GraphQLError | null {
  if (key === null || key === undefined) return null;
  const problem = keyedOperationProblem(key, document, operationName);
  return problem ? keyRefusal(problem) : null;
}

export interface ReplayContext {
  headers: Record<string, string | undefined>;
  /** Set by the data source when a subgraph answered from its stored replies. */
  replayed?: boolean;
}

/** Marks the request's context when a subgraph's answer was a replay (RemoteGraphQLDataSource). */
export function noteReplay(
  context: ReplayContext,
  headers: { get(name: string): string | null } | undefined,
): void {
  if (headers?.get(IDEMPOTENT_REPLAYED_HEADER) === 'true') context.replayed = true;
}

/** The Apollo engine: the 400 once the operation is known, the replay header on the answer. */
export function apolloIdempotencyPlugin<C extends ReplayContext>(): ApolloServerPlugin<C> {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ request, document, operationName }) {
          const refusal = refusalOf(
            request.http?.headers.get(IDEMPOTENCY_KEY_HEADER),
            document,
            operationName,
          );
          if (refusal) throw refusal;
        },
        async willSendResponse({ contextValue, response }) {
          if (contextValue.replayed) response.http.headers.set(IDEMPOTENT_REPLAYED_HEADER, 'true');
        },
      };
    },
  };
}

/** The Hive engine: the same 400 after validation (the replay header is propagated by config). */
export const hiveIdempotencyPlugin: GatewayPlugin = {
  onValidate:
    ({ params, context }) =>
    ({ result, setResult }) => {
      if (result.length) return;
      const request = (context as { request?: Request }).request;
      const refusal = refusalOf(
        request?.headers.get(IDEMPOTENCY_KEY_HEADER),
        params.documentAST,
        (context as { params?: { operationName?: string } }).params?.operationName,
      );
      if (refusal) setResult([refusal]);
    },
};

/** Hive's `propagateHeaders.fromSubgraphsToClient`: the replay mark only. */
export const replayHeaderToClient = ({ response }: { response: { headers: Headers } }) => {
  const replayed = response.headers.get(IDEMPOTENT_REPLAYED_HEADER);
  return replayed ? { [IDEMPOTENT_REPLAYED_HEADER]: replayed } : {};
};

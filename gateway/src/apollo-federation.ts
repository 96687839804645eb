/**
 * The Apollo federation gateway without Apollo Server (issue 27): the REST adapter's embedded
 * trusted-document engine runs on it alone (apollo-trusted.ts), so it loads neither
 * `@apollo/server` nor the platform's Apollo Server part; the standalone gateway puts Apollo
 * Server in front of it (apollo-engine.ts).
 */
import { ApolloGateway, RemoteGraphQLDataSource } from '@apollo/gateway';
import { APPLICATION_JSON, type createLogger, SUBGRAPH_SECRET_HEADER } from '@campaign/platform';
import { readSupergraph } from '@campaign/schema';
import { noApolloUsageData, type GatewayConfig } from './config.js';
import { noteReplay, type ReplayContext } from './idempotency.js';
import { subgraphFetcher } from './subgraph-fetcher.js';
import { RecordHeaders } from './subgraph-headers.js';
import { FORWARDED_HEADERS, subgraphUrlsOf } from './subgraphs.js';

export type GatewayContext = ReplayContext;
type Logger = ReturnType<typeof createLogger>;

/** The federation gateway and its keep-alive pools to the subgraphs, not yet loaded. */
export interface ApolloFederation {
  gateway: ApolloGateway;
  /** Closes the pools (the gateway itself is stopped by whoever loaded it). */
  closePools(): Promise<void>;
}

/**
 * The Apollo federation gateway: the static supergraph, the query planner, the data sources with
 * the subgraph secret and the forwarded headers over undici pools. One definition for the engine
 * behind Apollo Server (apollo-engine.ts) and the adapter's trusted-document engine (apollo-trusted.ts).
 */
export async function apolloFederation(
  config: GatewayConfig,
  logger: Logger,
): Promise<ApolloFederation> {
  const subgraphUrls = subgraphUrlsOf(config);
  // Keep-alive pools to the subgraphs (issue 14), closed with the engine.
  const subgraphs = subgraphFetcher();
  noApolloUsageData();
  const gateway = new ApolloGateway({
    supergraphSdl: await readSupergraph(),
    logger,
    buildService: ({ name, url }) =>
      new RemoteGraphQLDataSource<GatewayContext>({
        url: subgraphUrls[name] ?? url,
        fetcher: subgraphs.fetcher,
        willSendRequest({ request, context }) {
          if (!request.http) return;
          // The data source's own headers (its content type), then ours, as a record: iterating
          // node-fetch's Headers re-sorts them at each step (subgraph-headers.ts).
          const headers = new RecordHeaders(request.http.headers);
          headers.set(SUBGRAPH_SECRET_HEADER, config.SUBGRAPH_SECRET);
          // A subgraph's request error (a SafeInt out of range, a Decimal that is not one) then
          // comes back as 200 with its errors, which the gateway passes on with their code; a 400
          // would reach the data source as a failed fetch and the caller as INTERNAL_ERROR.
          headers.set('accept', APPLICATION_JSON);
          for (const header of FORWARDED_HEADERS) {
            const value = context.headers?.[header];
            if (value) headers.set(header, value);
          }
          request.http = { method: request.http.method, url: request.http.url, headers };
        },
        didReceiveResponse({ response, context }) {
          noteReplay(context, response.http?.headers);
          return response;
        },
      }),
  });
  return { gateway, closePools: subgraphs.close };
}

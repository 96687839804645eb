import { ApolloGateway, RemoteGraphQLDataSource } from '@apollo/gateway';
import type { ApolloServer, ApolloServerPlugin } from '@apollo/server';
import {
  APPLICATION_JSON,
  createGraphQLServer,
  type createLogger,
  graphqlLimits,
  SUBGRAPH_SECRET_HEADER,
} from '@campaign/platform';
import type { GraphQLSchema } from 'graphql';
import { readSupergraph } from '@campaign/schema';
import { noApolloUsageData, type GatewayConfig } from './config.js';
import { apolloIdempotencyPlugin, noteReplay, type ReplayContext } from './idempotency.js';
import { subgraphFetcher } from './subgraph-fetcher.js';
import { FORWARDED_HEADERS, subgraphUrlsOf } from './subgraphs.js';

export type GatewayContext = ReplayContext;
type Logger = ReturnType<typeof createLogger>;

export interface ApolloEngine {
  server: ApolloServer<GatewayContext>;
  /** The federation gateway behind the server, loaded. */
  gateway: ApolloGateway;
  /** The API schema the gateway serves (what its documents are validated against). */
  schema: GraphQLSchema;
  /** Stops the server and closes the keep-alive pools to the subgraphs. */
  close(): Promise<void>;
}

/** The federation gateway and its keep-alive pools to the subgraphs, not yet loaded. */
export interface ApolloFederation {
  gateway: ApolloGateway;
  /** Closes the pools (the gateway itself is stopped by whoever loaded it). */
  closePools(): Promise<void>;
}

/**
 * The Apollo federation gateway: the static supergraph, the query planner, the data sources with
 * the subgraph secret and the forwarded headers over undici pools. One definition for the engine
 * behind Apollo Server (below) and the adapter's trusted-document engine (apollo-trusted.ts).
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
          request.http?.headers.set(SUBGRAPH_SECRET_HEADER, config.SUBGRAPH_SECRET);
          // A subgraph's request error (a SafeInt out of range, a Decimal that is not one) then
          // comes back as 200 with its errors, which the gateway passes on with their code; a 400
          // would reach the data source as a failed fetch and the caller as INTERNAL_ERROR.
          request.http?.headers.set('accept', APPLICATION_JSON);
          for (const header of FORWARDED_HEADERS) {
            const value = context.headers?.[header];
            if (value) request.http?.headers.set(header, value);
          }
        },
        didReceiveResponse({ response, context }) {
          noteReplay(context, response.http?.headers);
          return response;
        },
      }),
  });
  return { gateway, closePools: subgraphs.close };
}

/**
 * The Apollo federation engine behind Apollo Server, started: the gateway above, the limits, the
 * masking and the idempotency plugin. The standalone gateway serves it over HTTP (server.ts).
 */
export async function startApolloEngine(
  config: GatewayConfig,
  logger: Logger,
  plugins: ApolloServerPlugin<GatewayContext>[] = [],
): Promise<ApolloEngine> {
  const { gateway, closePools } = await apolloFederation(config, logger);
  // Apollo Server loads the gateway itself (a second load throws); the schema comes to listeners
  // registered before that.
  let schema: GraphQLSchema | undefined;
  gateway.onSchemaLoadOrUpdate(({ apiSchema }) => (schema = apiSchema));
  const server = await createGraphQLServer<GatewayContext>({
    gateway,
    introspection: config.GATEWAY_INTROSPECTION,
    limits: graphqlLimits('GATEWAY', config),
    log: logger,
    plugins: [apolloIdempotencyPlugin<GatewayContext>(), ...plugins],
  });
  if (!schema) throw new Error('the Apollo gateway started without a schema');
  return {
    server,
    gateway,
    schema,
    close: async () => {
      await server.stop();
      await closePools();
    },
  };
}

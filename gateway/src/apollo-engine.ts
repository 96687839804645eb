import type { ApolloGateway } from '@apollo/gateway';
import type { ApolloServer, ApolloServerPlugin } from '@apollo/server';
import { type createLogger, graphqlLimits } from '@campaign/platform';
import { createGraphQLServer } from '@campaign/platform/graphql-server';
import type { GraphQLSchema } from 'graphql';
import { apolloFederation, type GatewayContext } from './apollo-federation.js';
import type { GatewayConfig } from './config.js';
import { apolloIdempotencyPlugin } from './idempotency.js';

export type { GatewayContext };
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

/**
 * The Apollo federation engine behind Apollo Server, started: the federation gateway (apollo-federation.ts), the limits, the
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

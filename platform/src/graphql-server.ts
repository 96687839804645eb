import {
  ApolloServer,
  type ApolloServerOptionsWithGateway,
  type ApolloServerPlugin,
  type BaseContext,
} from '@apollo/server';
import { ApolloServerPluginLandingPageDisabled } from '@apollo/server/plugin/disabled';
import { ApolloServerPluginLandingPageLocalDefault } from '@apollo/server/plugin/landingPage/default';
import fastifyApollo, { fastifyApolloDrainPlugin } from '@as-integrations/fastify';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { GraphQLFormattedError, GraphQLSchema } from 'graphql';

export interface MountOptions<C extends BaseContext> {
  app: FastifyInstance;
  schema?: GraphQLSchema;
  gateway?: ApolloServerOptionsWithGateway<C>['gateway'];
  context: (request: FastifyRequest, reply: FastifyReply) => Promise<C>;
  introspection: boolean;
  plugins?: ApolloServerPlugin<C>[];
}

/** Keeps the catalogue fields of an error and drops stack traces from responses. */
function formatError(formatted: GraphQLFormattedError): GraphQLFormattedError {
  const { stacktrace: _dropped, ...extensions } = formatted.extensions ?? {};
  return { ...formatted, extensions };
}

/** Serves GraphQL at POST/GET /graphql of a service app. */
export async function mountGraphQL<C extends BaseContext>(
  options: MountOptions<C>,
): Promise<ApolloServer<C>> {
  const server = new ApolloServer<C>({
    ...(options.gateway ? { gateway: options.gateway } : { schema: options.schema! }),
    introspection: options.introspection,
    formatError,
    includeStacktraceInErrorResponses: false,
    plugins: [
      fastifyApolloDrainPlugin(options.app),
      options.introspection
        ? ApolloServerPluginLandingPageLocalDefault({ embed: true })
        : ApolloServerPluginLandingPageDisabled(),
      ...(options.plugins ?? []),
    ],
  });
  await server.start();
  await options.app.register(fastifyApollo(server), { context: options.context, path: '/graphql' });
  return server;
}

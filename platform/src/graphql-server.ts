import {
  ApolloServer,
  type ApolloServerOptionsWithGateway,
  type ApolloServerPlugin,
  type BaseContext,
} from '@apollo/server';
import {
  ApolloServerPluginCacheControlDisabled,
  ApolloServerPluginInlineTraceDisabled,
  ApolloServerPluginLandingPageDisabled,
} from '@apollo/server/plugin/disabled';
import fastifyApollo, {
  fastifyApolloDrainPlugin,
  fastifyApolloHandler,
} from '@as-integrations/fastify';
import { ApolloArmor } from '@escape.tech/graphql-armor';
import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { GraphQLSchema, OperationDefinitionNode } from 'graphql';
import { errorBody } from '@campaign/schema';
import { sameSecret } from './secrets.js';
import { SUBGRAPH_SECRET_HEADER } from './client-address.js';
import { isShownAsIs, maskError } from './error-masking.js';
import { graphqlOverHttpPlugin, tokenLimitAsValidation } from './graphql-over-http.js';
import type { GraphQLLimits } from './graphql-limits.js';
import { REQUEST_ID_HEADER } from './http.js';
import { graphqlOperationPlugins } from './graphql-metrics.js';
import { subgraphDocuments } from './graphql-documents.js';

/** The server's part of the options: what it runs, its limits, its plugins, where it logs. */
export interface GraphQLServerOptions<C extends BaseContext> {
  schema?: GraphQLSchema;
  gateway?: ApolloServerOptionsWithGateway<C>['gateway'];
  introspection: boolean;
  limits: GraphQLLimits;
  plugins?: ApolloServerPlugin<C>[];
  /** Where an unexpected error's detail goes (the service's logger). */
  log: Pick<FastifyBaseLogger, 'error'>;
}

export interface MountOptions<C extends BaseContext> extends Omit<GraphQLServerOptions<C>, 'log'> {
  app: FastifyInstance;
  context: (request: FastifyRequest, reply: FastifyReply) => Promise<C>;
  /** A subgraph answers only callers that send this secret (the gateway); unset on the gateway. */
  subgraphSecret?: string;
  /**
   * A subgraph's operations that its own plugins act on (settlement's keyed mutations): Apollo
   * Server's full pipeline answers them. Every other operation of a known, valid document takes
   * the lean path (graphql-documents.ts), where `plugins` do not run.
   */
  fullPipeline?: (operation: OperationDefinitionNode, request: FastifyRequest) => boolean;
}

/**
 * Depth, alias, token, directive and cost limits: refused before any resolver or subgraph call.
 * One configuration for both servers that take it (Apollo here, envelop in the Hive gateway).
 */
export function armorOptions(limits: GraphQLLimits, introspection: boolean) {
  return {
    maxDepth: { n: limits.maxDepth, ignoreIntrospection: true, flattenFragments: true },
    maxAliases: { n: limits.maxAliases },
    maxTokens: { n: limits.maxTokens },
    maxDirectives: { n: limits.maxDirectives },
    costLimit: { maxCost: limits.maxCost, ignoreIntrospection: true },
    // "Did you mean …?" would describe a schema that introspection is meant to hide.
    blockFieldSuggestion: { enabled: !introspection },
  };
}

/**
 * On Apollo the token limit is graphql-js's own `parseOptions.maxTokens`, not armor's: armor's
 * Apollo plugin parses the document a second time in `parsingDidStart`, where any syntax error
 * (`{"query":"{"}`) is thrown as an unexpected error, an HTTP 500 (a known upstream problem).
 * graphql-js stops at the same count while parsing, a request error like any syntax error.
 * Exported for the REST adapter's trusted-document engine, which validates its documents once
 * at start with the same rules (gateway/src/apollo-trusted.ts).
 */
export function armorFor(limits: GraphQLLimits, introspection: boolean) {
  const options = armorOptions(limits, introspection);
  return new ApolloArmor({
    ...options,
    maxTokens: { ...options.maxTokens, enabled: false },
  }).protect();
}

/**
 * The platform's Apollo Server, started: limits, masking, GraphQL over HTTP, metrics and the
 * caller's plugins. One definition for every server that runs it: the subgraphs and the gateway
 * behind HTTP (mountGraphQL), and the gateway the REST adapter runs in its own process (issue 27,
 * through `executeOperation`).
 */
export async function createGraphQLServer<C extends BaseContext>(
  options: GraphQLServerOptions<C>,
): Promise<ApolloServer<C>> {
  const armor = armorFor(options.limits, options.introspection);
  const server = new ApolloServer<C>({
    ...(options.gateway ? { gateway: options.gateway } : { schema: options.schema! }),
    introspection: options.introspection,
    allowBatchedHttpRequests: false,
    includeStacktraceInErrorResponses: false,
    validationRules: armor.validationRules,
    parseOptions: { maxTokens: options.limits.maxTokens },
    formatError: (formatted, error) => maskError(tokenLimitAsValidation(formatted), error),
    plugins: [
      // Apollo's landing page loads Apollo Sandbox from a CDN: blank on a machine without
      // internet. The gateway serves its own explorer instead (gateway/src/explorer.ts).
      ApolloServerPluginLandingPageDisabled(),
      // A subgraph (issue 27): Apollo's default cache-control plugin hooks every field of every
      // request (a policy object and two cache look-ups per field, and the schema's resolvers
      // wrapped for it) for a `cache-control` header that only the gateway reads, where no header
      // means uncacheable just as `no-store` does; the inline-trace plugin builds a trace tree per
      // request for federated tracing (ftv1) that no gateway here asks for.
      // No field of either subgraph has a cache hint, so every answer keeps the header that
      // plugin gave it, `no-store`, set once per response instead.
      ...(options.gateway
        ? []
        : [
            ApolloServerPluginCacheControlDisabled(),
            ApolloServerPluginInlineTraceDisabled(),
            noStorePlugin<C>(),
          ]),
      // Request errors: 400 or 200 by what the client accepts (GraphQL over HTTP).
      graphqlOverHttpPlugin<C>(),
      // armor's typings name @apollo/server's CommonJS build; the plugins are the same objects.
      ...(armor.plugins as unknown as ApolloServerPlugin<C>[]),
      {
        // The detail of an unexpected error goes to the log only, under the request id.
        async requestDidStart() {
          return {
            async didEncounterErrors({ errors, request }) {
              const requestId = request.http?.headers.get(REQUEST_ID_HEADER);
              for (const error of errors) {
                if (isShownAsIs(error.extensions?.['code'])) continue;
                const err = error.originalError ?? error;
                options.log.error({ err, requestId, path: error.path }, 'unexpected graphql error');
              }
            },
          };
        },
      },
      ...graphqlOperationPlugins<C>(),
      ...(options.plugins ?? []),
    ],
  });
  await server.start();
  return server;
}

/** Apollo's drain plugin for a server behind `app` (in-flight requests finish on stop). */
export const drainPlugin = <C extends BaseContext>(app: FastifyInstance): ApolloServerPlugin<C> =>
  fastifyApolloDrainPlugin(app);

/** Serves a started server at POST/GET /graphql of a service app. */
export async function serveGraphQL<C extends BaseContext>(
  app: FastifyInstance,
  server: ApolloServer<C>,
  options: Pick<MountOptions<C>, 'context' | 'subgraphSecret'>,
  lean?: ReturnType<typeof subgraphDocuments<C>>,
): Promise<void> {
  const secret = options.subgraphSecret;
  if (secret) {
    app.addHook('onRequest', async (request, reply) => {
      if (!request.url.startsWith('/graphql')) return;
      if (sameSecret(request.headers[SUBGRAPH_SECRET_HEADER], secret)) return;
      const body = errorBody('UNAUTHENTICATED', 'This service answers only the platform gateway.');
      return reply.code(401).send({ errors: [{ message: body.message, extensions: body }] });
    });
  }
  if (!lean) {
    await app.register(fastifyApollo(server), { context: options.context, path: '/graphql' });
    return;
  }
  // The route fastifyApollo registers, trying the lean path first.
  const apollo = fastifyApolloHandler(server, { context: options.context });
  // Reply: the type the Apollo handler declares (its body is a string or a stream it sends).
  app.route<{ Reply: string }>({
    method: ['GET', 'POST', 'OPTIONS'],
    url: '/graphql',
    handler: async (request, reply) =>
      (await lean.answer(request, reply)) ?? apollo.call(app, request, reply),
  });
}

/**
 * Serves GraphQL at POST/GET /graphql of a service app: a subgraph (a schema) answers its known
 * documents on the lean path (issue 27), the rest through Apollo Server.
 */
export async function mountGraphQL<C extends BaseContext>(
  options: MountOptions<C>,
): Promise<ApolloServer<C>> {
  const { app } = options;
  const server = await createGraphQLServer<C>({
    ...options,
    log: app.log,
    plugins: [drainPlugin<C>(app), ...(options.plugins ?? [])],
  });
  const lean = options.schema
    ? subgraphDocuments<C>({
        schema: options.schema,
        validationRules: armorFor(options.limits, options.introspection).validationRules,
        maxTokens: options.limits.maxTokens,
        introspection: options.introspection,
        log: app.log,
        context: options.context,
        ...(options.fullPipeline ? { fullPipeline: options.fullPipeline } : {}),
      })
    : undefined;
  await serveGraphQL(app, server, options, lean);
  return server;
}

/** `cache-control: no-store` on every subgraph answer (what Apollo's cache-control plugin said). */
function noStorePlugin<C extends BaseContext>(): ApolloServerPlugin<C> {
  return {
    async requestDidStart() {
      return {
        async willSendResponse({ response }) {
          response.http.headers.set('cache-control', 'no-store');
        },
      };
    },
  };
}

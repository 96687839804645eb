// Types only at load: a subgraph loads Apollo Server (and its Fastify integration) when the first
// request its lean path does not answer arrives (issue 27, idle RSS), the gateway at start.
import type {
  ApolloServer,
  ApolloServerOptionsWithGateway,
  ApolloServerPlugin,
  BaseContext,
} from '@apollo/server';
import type {
  FastifyBaseLogger,
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
  RouteHandlerMethod,
} from 'fastify';
import type { GraphQLSchema, OperationDefinitionNode } from 'graphql';
import { errorBody } from '@campaign/schema';
import { secretCheck } from './secrets.js';
import { SUBGRAPH_SECRET_HEADER } from './client-address.js';
import { isShownAsIs, maskError } from './error-masking.js';
import { graphqlOverHttpPlugin, tokenLimitAsValidation } from './graphql-over-http.js';
import type { GraphQLLimits } from './graphql-limits.js';
import { armorFor } from './graphql-armor.js';
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
 * The platform's Apollo Server, started: limits, masking, GraphQL over HTTP, metrics and the
 * caller's plugins. One definition for every server that runs it: the subgraphs and the gateway
 * behind HTTP (mountGraphQL), and the gateway the REST adapter runs in its own process (issue 27,
 * through `executeOperation`).
 */
export async function createGraphQLServer<C extends BaseContext>(
  options: GraphQLServerOptions<C>,
): Promise<ApolloServer<C>> {
  const [{ ApolloServer }, disabled] = await Promise.all([
    import('@apollo/server'),
    import('@apollo/server/plugin/disabled'),
  ]);
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
      disabled.ApolloServerPluginLandingPageDisabled(),
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
            disabled.ApolloServerPluginCacheControlDisabled(),
            disabled.ApolloServerPluginInlineTraceDisabled(),
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

/**
 * Apollo's drain plugin for a server behind `app` (in-flight requests finish on stop): what
 * `fastifyApolloDrainPlugin` of @as-integrations/fastify does, without loading that package (it
 * loads `@apollo/server`) where the server is made later.
 */
export const drainPlugin = <C extends BaseContext>(
  app: FastifyInstance,
): ApolloServerPlugin<C> => ({
  async serverWillStart() {
    return {
      async drainServer() {
        const timeout = setTimeout(() => app.server.closeAllConnections(), 10_000);
        await app.close();
        clearTimeout(timeout);
      },
    };
  },
});

/** A started server, or how to make it when first needed (a subgraph's, issue 27). */
export type ServerSource<C extends BaseContext> =
  ApolloServer<C> | (() => Promise<ApolloServer<C>>);

/** Serves a server at POST/GET /graphql of a service app, its lean path first when it has one. */
export async function serveGraphQL<C extends BaseContext>(
  app: FastifyInstance,
  server: ServerSource<C>,
  options: Pick<MountOptions<C>, 'context' | 'subgraphSecret'>,
  lean?: ReturnType<typeof subgraphDocuments<C>>,
): Promise<void> {
  if (options.subgraphSecret) {
    const fromGateway = secretCheck(options.subgraphSecret);
    // A callback hook: no promise and microtask per request for a synchronous check (issue 27).
    // A refusal answers and does not call `done` (fastify: the reply ends the hooks).
    app.addHook('onRequest', (request, reply, done) => {
      if (
        !request.url.startsWith('/graphql') ||
        fromGateway(request.headers[SUBGRAPH_SECRET_HEADER])
      )
        return done();
      const body = errorBody('UNAUTHENTICATED', 'This service answers only the platform gateway.');
      void reply.code(401).send({ errors: [{ message: body.message, extensions: body }] });
    });
  }
  // What fastifyApolloHandler returns: its body is a string or a stream it sends.
  type Handler = RouteHandlerMethod<
    RawServerDefault,
    RawRequestDefaultExpression,
    RawReplyDefaultExpression,
    { Reply: string }
  >;
  let made: Promise<Handler> | undefined;
  /** Apollo's handler (the route fastifyApollo registers), made once; a failed start is retried. */
  const apollo = (): Promise<Handler> =>
    (made ??= (async () => {
      const started = typeof server === 'function' ? await server() : server;
      const fastify = await import('@as-integrations/fastify');
      return fastify.fastifyApolloHandler(started, { context: options.context });
    })().catch((error: unknown) => {
      made = undefined;
      throw error;
    }));
  if (!lean) await apollo();
  // Reply: the type the Apollo handler declares (its body is a string or a stream it sends).
  app.route<{ Reply: string }>({
    method: ['GET', 'POST', 'OPTIONS'],
    url: '/graphql',
    handler: async (request, reply) =>
      (await lean?.answer(request, reply)) ?? (await apollo()).call(app, request, reply),
  });
}

/**
 * Serves GraphQL at POST/GET /graphql of a service app: a subgraph (a schema) answers its known
 * documents on the lean path (issue 27), the rest through Apollo Server, which is made and started
 * by the first such request (the gateway's query plans never need it; about 3-4 MB of idle RSS
 * saved). The gateway (no schema) starts its Apollo Server here, at once.
 */
export async function mountGraphQL<C extends BaseContext>(options: MountOptions<C>): Promise<void> {
  const { app } = options;
  const make = () =>
    createGraphQLServer<C>({
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
  await serveGraphQL(app, lean ? make : await make(), options, lean);
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

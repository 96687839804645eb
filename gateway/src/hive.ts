import { createGatewayRuntime, type GatewayPlugin } from '@graphql-hive/gateway-runtime';
import * as httpTransport from '@graphql-mesh/transport-http';
import { GraphQLError } from 'graphql';
import {
  createLogger,
  createServiceApp,
  envelopArmorPlugins,
  graphqlLimits,
  listen,
  maskError,
  SUBGRAPH_SECRET_HEADER,
  type RunningServer,
} from '@campaign/platform';
import { readSupergraph } from '@campaign/schema';
import type { GatewayConfig } from './config.js';
import { hiveIdempotencyPlugin, replayHeaderToClient } from './idempotency.js';
import { withExtensions } from './request-errors.js';
import { subgraphFetcher } from './subgraph-fetcher.js';
import { hiveTrustedDocuments } from './trusted-documents.js';
import {
  FORWARDED_HEADERS,
  subgraphHeadersOf,
  subgraphsReady,
  subgraphUrlsOf,
} from './subgraphs.js';

type SubgraphFetch = Parameters<
  Parameters<NonNullable<GatewayPlugin['onFetch']>>[0]['setFetchFn']
>[0];

/**
 * The subgraph calls on the Apollo engine's undici keep-alive pools (issue 27): the engine's own
 * fetch (@whatwg-node/node-fetch over node:http) was about 12 % of its busy CPU. The pools close
 * with the runtime.
 */
function pooledSubgraphFetch(): GatewayPlugin {
  const subgraphs = subgraphFetcher();
  return {
    onFetch: ({ setFetchFn }) => setFetchFn(subgraphs.fetch as unknown as SubgraphFetch),
    onDispose: subgraphs.close,
  };
}

/**
 * The same error as a request error of `code` (kept when it already has one), marked the way Yoga
 * marks its own: HTTP 400 for a client that accepts `application/graphql-response+json`, 200 for
 * one that accepts only `application/json` (GraphQL over HTTP).
 */
const asRequestError = (error: GraphQLError, code: string) =>
  withExtensions(error, {
    code: error.extensions?.['code'] ?? code,
    http: { spec: true, status: 400 },
  });

/** How graphql-armor words a refusal ("Token limit of 3000 exceeded."). */
const ARMOR_LIMIT = /limit of \d+ exceeded/i;

const RESOLUTION = 'OPERATION_RESOLUTION_FAILURE';

/** graphql-js's words for variables that do not coerce ("Variable "$id" got invalid value …"). */
const VARIABLE_ERROR = /^Variable "\$\w+" /;

/**
 * Apollo Server names the caller's request errors (`GRAPHQL_PARSE_FAILED`,
 * `GRAPHQL_VALIDATION_FAILED`, `BAD_USER_INPUT`, the limits included); Yoga leaves them without a
 * code, and variables that do not coerce become an unexpected error. Clients and the REST adapter
 * read the code, so both engines give it.
 */
const requestErrorCodes: GatewayPlugin = {
  onParse:
    () =>
    ({ result, replaceParseResult }) => {
      // The token limit refuses while parsing; Apollo names it a validation failure like the rest.
      if (result instanceof GraphQLError)
        replaceParseResult(
          asRequestError(
            result,
            ARMOR_LIMIT.test(result.message) ? 'GRAPHQL_VALIDATION_FAILED' : 'GRAPHQL_PARSE_FAILED',
          ),
        );
    },
  onValidate:
    () =>
    ({ result, setResult }) => {
      if (result.length)
        setResult(result.map((e) => asRequestError(e, 'GRAPHQL_VALIDATION_FAILED')));
    },
  onExecute: () => ({
    onExecuteDone: ({ result, setResult }) => {
      // Variables are coerced before anything runs: errors and no data, each naming a variable.
      if (Symbol.asyncIterator in result || 'data' in result || !result.errors?.length) return;
      if (!result.errors.every((e) => VARIABLE_ERROR.test(e.message))) return;
      setResult({
        ...result,
        errors: result.errors.map((e) =>
          asRequestError(
            e instanceof GraphQLError ? e : new GraphQLError(e.message),
            'BAD_USER_INPUT',
          ),
        ),
      });
    },
  }),
  // Yoga refuses an operation name that names no operation as a 400 whatever the client accepts.
  onResultProcess: ({ result, setResult }) => {
    if (Array.isArray(result) || Symbol.asyncIterator in result || 'data' in result) return;
    const errors = result.errors ?? [];
    if (!errors.length || !errors.every((e) => e.extensions?.['code'] === RESOLUTION)) return;
    setResult({
      ...result,
      errors: errors.map((e) => asRequestError(e, RESOLUTION)),
    });
  },
};

/** Hive's log levels; `silent` turns its logging off. */
const hiveLogging = (level: string) =>
  level === 'silent' ? false : level === 'fatal' ? 'error' : (level as 'info');

/** The Hive engine's runtime (a Yoga server without a listener of its own). */
export type HiveRuntime = ReturnType<typeof createGatewayRuntime>;

/**
 * The same static supergraph on a second federation engine (issue 16, `GATEWAY_ENGINE=hive`):
 * `@graphql-hive/gateway-runtime` (GraphQL Yoga) with the subgraph secret and the forwarded
 * headers of the Apollo engine, the same graphql-armor limits, the same error masking,
 * introspection as configured and no landing page. One definition for the standalone gateway
 * (below) and the gateway the REST adapter runs in its own process (embedded.ts, issue 27).
 */
export async function createHiveRuntime(
  config: GatewayConfig,
  extraPlugins: GatewayPlugin[] = [],
): Promise<HiveRuntime> {
  const subgraphUrls = subgraphUrlsOf(config);
  const limits = graphqlLimits('GATEWAY', config);
  // Loaded only when chosen: a native module and its own copy of the federation tools.
  const rustPlanner =
    config.GATEWAY_QUERY_PLANNER === 'rust'
      ? (await import('@graphql-hive/router-runtime')).unifiedGraphHandler
      : undefined;
  return createGatewayRuntime({
    supergraph: await readSupergraph(),
    ...(rustPlanner ? { unifiedGraphHandler: rustPlanner } : {}),
    transportEntries: Object.fromEntries(
      Object.entries(subgraphUrls).map(([name, location]) => [name, { location }]),
    ),
    propagateHeaders: {
      fromClientToSubgraphs: ({ request }) => ({
        [SUBGRAPH_SECRET_HEADER]: config.SUBGRAPH_SECRET,
        ...Object.fromEntries(FORWARDED_HEADERS.map((h) => [h, request.headers.get(h)])),
      }),
      fromSubgraphsToClient: replayHeaderToClient,
    },
    transports: { http: httpTransport },
    plugins: () => [
      ...(envelopArmorPlugins(limits, config.GATEWAY_INTROSPECTION) as GatewayPlugin[]),
      requestErrorCodes,
      hiveIdempotencyPlugin,
      pooledSubgraphFetch(),
      ...extraPlugins,
    ],
    ...(config.GATEWAY_INTROSPECTION ? {} : { disableIntrospection: { disableIf: () => true } }),
    maskedErrors: {
      // The Apollo gateway's formatError: catalogue codes kept, outages a 503, the rest masked.
      maskError: (error) => {
        const original = error instanceof GraphQLError ? error : new GraphQLError(String(error));
        const masked = maskError(original.toJSON(), original.originalError ?? original);
        return new GraphQLError(masked.message, {
          ...(original.path ? { path: original.path } : {}),
          ...(masked.extensions ? { extensions: masked.extensions } : {}),
        });
      },
    },
    graphiql: false,
    landingPage: false,
    logging: hiveLogging(config.LOG_LEVEL),
  });
}

/** The standalone gateway on the Hive engine, mounted on the platform's fastify app. */
export async function startHiveGateway(config: GatewayConfig): Promise<RunningServer> {
  const logger = createLogger('gateway', config.LOG_LEVEL);
  const runtime = await createHiveRuntime(config, await hiveTrustedDocuments(config));
  const app = createServiceApp({
    logger,
    readiness: () => subgraphsReady(subgraphUrlsOf(config)),
  });
  app.addHook('onSend', async (_request, reply) => {
    reply.header('x-content-type-options', 'nosniff');
    reply.header('cache-control', 'no-store');
  });
  app.addHook('onClose', async () => runtime.dispose());
  app.route({
    url: '/graphql',
    method: ['GET', 'POST', 'OPTIONS'],
    handler: async (request, reply) => {
      // The headers the subgraphs receive, decided here as the Apollo engine decides them.
      for (const [name, value] of Object.entries(subgraphHeadersOf(request, config.PROXY_SECRET)))
        if (value === undefined) delete request.headers[name];
        else request.headers[name] = value;
      const response = await runtime.handleNodeRequestAndResponse(request, reply, {
        req: request,
        reply,
      });
      response.headers.forEach((value, key) => void reply.header(key, value));
      reply.status(response.status);
      return reply.send(response.body);
    },
  });
  const running = await listen(app, config.GATEWAY_HOST, config.GATEWAY_PORT);
  logger.info(
    { url: `${running.url}/graphql`, engine: 'hive', planner: config.GATEWAY_QUERY_PLANNER },
    'gateway listening',
  );
  return running;
}

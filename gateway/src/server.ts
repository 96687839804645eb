import { ApolloGateway, RemoteGraphQLDataSource } from '@apollo/gateway';
import {
  APPLICATION_JSON,
  createLogger,
  IDEMPOTENCY_KEY_HEADER,
  createServiceApp,
  forwardedClientAddress,
  graphqlLimits,
  LENS_INTERFACE_HEADER,
  listen,
  REQUEST_ID_HEADER,
  type RunningServer,
  vouchedLensInterface,
} from '@campaign/platform';
import { mountGraphQL, SUBGRAPH_SECRET_HEADER } from '@campaign/platform';
import { readSupergraph } from '@campaign/schema';
import type { GatewayConfig } from './config.js';
import { FORWARDED_HEADERS, subgraphsReady, subgraphUrlsOf } from './subgraphs.js';
import { registerExplorer } from './explorer.js';
import { apolloIdempotencyPlugin, noteReplay, type ReplayContext } from './idempotency.js';
import { subgraphFetcher } from './subgraph-fetcher.js';

type GatewayContext = ReplayContext;

const firstValue = (value: string | string[] | undefined) =>
  Array.isArray(value) ? value[0] : value;

export async function startGateway(config: GatewayConfig): Promise<RunningServer> {
  const logger = createLogger('gateway', config.LOG_LEVEL);
  const subgraphUrls = subgraphUrlsOf(config);
  // Keep-alive pools to the subgraphs (issue 14), closed with the server.
  const subgraphs = subgraphFetcher();
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
  const app = createServiceApp({
    logger,
    readiness: () => subgraphsReady(subgraphUrls),
  });
  app.addHook('onSend', async (_request, reply) => {
    reply.header('x-content-type-options', 'nosniff');
    // The explorer page runs with the visitor's token: no other origin may frame it.
    reply.header('x-frame-options', 'DENY');
    reply.header('content-security-policy', "frame-ancestors 'none'");
    // Answers carry account data, bank details and tokens: never stored by a cache.
    reply.header('cache-control', 'no-store');
  });
  app.addHook('onClose', subgraphs.close);
  if (config.GATEWAY_EXPLORER) registerExplorer(app);
  await mountGraphQL<GatewayContext>({
    app,
    gateway,
    introspection: config.GATEWAY_INTROSPECTION,
    limits: graphqlLimits('GATEWAY', config),
    plugins: [apolloIdempotencyPlugin<GatewayContext>()],
    context: async (request) => ({
      headers: {
        authorization: request.headers.authorization,
        [REQUEST_ID_HEADER]: request.id,
        // A direct caller's own X-Forwarded-For is replaced: public limits count per address.
        'x-forwarded-for': forwardedClientAddress(request.headers, request.ip, config.PROXY_SECRET),
        // Only the REST adapter's MCP front may say a call came over the tool protocol.
        [LENS_INTERFACE_HEADER]: vouchedLensInterface(request.headers, config.PROXY_SECRET),
        [IDEMPOTENCY_KEY_HEADER]: firstValue(request.headers[IDEMPOTENCY_KEY_HEADER]),
      },
    }),
  });
  const running = await listen(app, config.GATEWAY_HOST, config.GATEWAY_PORT);
  logger.info({ url: `${running.url}/graphql` }, 'gateway listening');
  return running;
}

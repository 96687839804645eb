import {
  createLogger,
  createServiceApp,
  listen,
  type RunningServer,
  serveGraphQL,
} from '@campaign/platform';
import { startApolloEngine } from './apollo-engine.js';
import type { GatewayConfig } from './config.js';
import { registerExplorer } from './explorer.js';
import { subgraphHeadersOf, subgraphsReady, subgraphUrlsOf } from './subgraphs.js';
import { trustedExecutor } from './apollo-trusted.js';
import { apolloTrustedDocuments, trustedDocumentBodies } from './trusted-documents.js';
import { serveTrustedDocuments } from './trusted-http.js';

/** The standalone gateway for consoles: the Apollo engine behind HTTP at :4000/graphql. */
export async function startGateway(config: GatewayConfig): Promise<RunningServer> {
  const logger = createLogger('gateway', config.LOG_LEVEL);
  const subgraphUrls = subgraphUrlsOf(config);
  const app = createServiceApp({
    logger,
    readiness: () => subgraphsReady(subgraphUrls),
  });
  // No Apollo drain plugin: the engine stops in the app's onClose hook, and that plugin's
  // drainServer awaits app.close() again from inside it, which never settles (a stop hung for
  // good; gateway/src/engine-outage.test.ts). fastify's own close already lets in-flight
  // requests finish.
  const engine = await startApolloEngine(config, logger, await apolloTrustedDocuments(config));
  app.addHook('onSend', async (_request, reply) => {
    reply.header('x-content-type-options', 'nosniff');
    // The explorer page runs with the visitor's token: no other origin may frame it.
    reply.header('x-frame-options', 'DENY');
    reply.header('content-security-policy', "frame-ancestors 'none'");
    // Answers carry account data, bank details and tokens: never stored by a cache.
    reply.header('cache-control', 'no-store');
  });
  app.addHook('onClose', engine.close);
  if (config.GATEWAY_EXPLORER) registerExplorer(app);
  // The trusted documents skip Apollo Server's per-request pipeline (issue 27, trusted-http.ts);
  // consoles' own documents and everything else still go through it.
  const documents = await trustedDocumentBodies();
  serveTrustedDocuments(
    app,
    trustedExecutor(engine.gateway, engine.schema, config, logger, documents),
    config,
  );
  await serveGraphQL(app, engine.server, {
    context: async (request) => ({
      headers: subgraphHeadersOf(request, config.PROXY_SECRET),
    }),
  });
  const running = await listen(app, config.GATEWAY_HOST, config.GATEWAY_PORT);
  logger.info({ url: `${running.url}/graphql` }, 'gateway listening');
  return running;
}

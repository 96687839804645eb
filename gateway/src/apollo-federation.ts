/**
 * The Apollo federation gateway without Apollo Server (issue 27): the REST adapter's embedded
 * trusted-document engine runs on it alone (apollo-trusted.ts), so it loads neither
 * `@apollo/server` nor the platform's Apollo Server part; the standalone gateway puts Apollo
 * Server in front of it (apollo-engine.ts).
 */
import { ApolloGateway } from '@apollo/gateway';
import type { createLogger } from '@campaign/platform';
import { readSupergraph } from '@campaign/schema';
import { noApolloUsageData, type GatewayConfig } from './config.js';
import type { ReplayContext } from './idempotency.js';
import { subgraphFetcher } from './subgraph-fetcher.js';
import { SubgraphDataSource } from './subgraph-data-source.js';
import { subgraphUrlsOf } from './subgraphs.js';

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
      new SubgraphDataSource(subgraphUrls[name] ?? url, subgraphs.fetcher, config),
  });
  return { gateway, closePools: subgraphs.close };
}

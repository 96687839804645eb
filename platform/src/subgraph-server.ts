import type { FastifyInstance } from 'fastify';
import { graphqlLimits, type GraphQLLimits, type LimitVar } from './graphql-limits.js';
import { listen, type RunningServer } from './http.js';
import type { Logger } from './logger.js';

/**
 * How long a closing subgraph waits for its workers' running jobs. What still runs after it is
 * left to its lease (lens) or its next attempt (the outbox), so a stop never hangs on an outside
 * system.
 */
export const WORKER_STOP_TIMEOUT_MS = 5_000;

/** `work`, or nothing once WORKER_STOP_TIMEOUT_MS have passed (the timer never holds the process). */
export function withinStopTimeout(work: Promise<unknown>): Promise<unknown> {
  return Promise.race([
    work,
    new Promise((resolve) => setTimeout(resolve, WORKER_STOP_TIMEOUT_MS).unref()),
  ]);
}

/**
 * A subgraph's app listening, its GraphQL URL logged. Closing stops taking requests first, then
 * stops the subgraph's work (`stopWork`, its workers in the order it needs), then the ORM.
 */
export async function listenSubgraph(
  app: FastifyInstance,
  where: { host: string; port: number; name: string; logger: Logger },
  stopWork: () => Promise<void>,
  orm: { close(): Promise<void> },
): Promise<RunningServer> {
  const running = await listen(app, where.host, where.port);
  where.logger.info({ url: `${running.url}/graphql` }, `${where.name} listening`);
  return {
    ...running,
    close: async () => {
      await running.close();
      await stopWork();
      await orm.close();
    },
  };
}

/**
 * What a subgraph's GraphQL endpoint takes from its configuration, named under its prefix
 * (`LENS`, `SETTLEMENT`): introspection, the limits, and the secret the gateway proves itself
 * with.
 */
export function subgraphEndpoint<P extends string>(
  prefix: P,
  config: Record<LimitVar<P>, number> &
    Record<`${P}_INTROSPECTION`, boolean> & { SUBGRAPH_SECRET: string },
): { introspection: boolean; limits: GraphQLLimits; subgraphSecret: string } {
  return {
    // Boolean(): TypeScript cannot tell this key from the limits' own in a generic index.
    introspection: Boolean(config[`${prefix}_INTROSPECTION`]),
    limits: graphqlLimits(prefix, config),
    subgraphSecret: config.SUBGRAPH_SECRET,
  };
}

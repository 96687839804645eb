import type { GraphQLFormattedError } from 'graphql';
import { IDEMPOTENT_REPLAYED_HEADER, type createLogger } from '@campaign/platform';
import type { GatewayConfig } from './config.js';
import { subgraphsReady, subgraphUrlsOf, type ForwardedHeaders } from './subgraphs.js';

/**
 * The gateway as a library (issue 27): the REST adapter and its MCP front run their GraphQL
 * operations on an engine in their own process, built by the same code as the standalone
 * gateway's (apollo-engine.ts, hive.ts: the same supergraph, query planner, subgraph fetcher,
 * limits, masking and idempotency plugin), so a REST call crosses one hop (adapter → subgraph),
 * not two. The caller is in the same process, so it states the headers the subgraphs receive
 * itself: no proxy secret to vouch for the client address or the lens interface.
 */
export interface GatewayCall {
  query: string;
  variables: Record<string, unknown>;
  headers: ForwardedHeaders;
}

export interface GatewayAnswer<T> {
  data?: T | null;
  errors?: readonly GraphQLFormattedError[];
  /** A subgraph answered from its stored replies (Idempotent-Replayed: true). */
  replayed?: boolean;
}

export interface EmbeddedGateway {
  engine: GatewayConfig['GATEWAY_ENGINE'];
  execute<T>(call: GatewayCall): Promise<GatewayAnswer<T>>;
  /** Every subgraph answers its /readyz (the embedding service's readiness). */
  ready(): Promise<void>;
  close(): Promise<void>;
}

type Logger = ReturnType<typeof createLogger>;

/** Header entries with a value (the engines take no undefined). */
const present = (headers: ForwardedHeaders): [string, string][] =>
  Object.entries(headers).filter((entry): entry is [string, string] => entry[1] !== undefined);

async function embedApollo(config: GatewayConfig, logger: Logger, documents: readonly string[]) {
  // Only trusted documents run here: each is prepared at start and a request skips Apollo
  // Server's per-request pipeline (apollo-trusted.ts); the standalone gateway keeps it.
  const { startTrustedApolloEngine } = await import('./apollo-trusted.js');
  const engine = await startTrustedApolloEngine(config, logger, documents);
  return {
    close: engine.close,
    async execute<T>({ query, variables, headers }: GatewayCall): Promise<GatewayAnswer<T>> {
      const { data, errors, replayed } = await engine.execute(query, variables, headers);
      return {
        ...(data !== undefined ? { data: data as T | null } : {}),
        ...(errors ? { errors } : {}),
        replayed,
      };
    },
  };
}

/** Yoga's own address for a request that never leaves the process. */
const IN_PROCESS_URL = 'http://gateway.in-process/graphql';

async function embedHive(config: GatewayConfig) {
  const { createHiveRuntime } = await import('./hive.js');
  const runtime = await createHiveRuntime(config);
  return {
    close: async () => {
      await runtime.dispose();
    },
    async execute<T>({ query, variables, headers }: GatewayCall): Promise<GatewayAnswer<T>> {
      // Yoga's fetch API: its whole pipeline (plugins, limits, masking) on a Request object.
      const response = await runtime.fetch(IN_PROCESS_URL, {
        method: 'POST',
        headers: [['content-type', 'application/json'], ...present(headers)],
        body: JSON.stringify({ query, variables }),
      });
      const body = (await response.json()) as GatewayAnswer<T>;
      return { ...body, replayed: response.headers.get(IDEMPOTENT_REPLAYED_HEADER) === 'true' };
    },
  };
}

/**
 * Starts the configured engine; only its libraries are loaded (each costs tens of MB).
 * `documents` are the only ones the caller runs (its trusted documents): the Apollo engine
 * prepares them at start and runs no other.
 */
export async function embedGateway(
  config: GatewayConfig,
  logger: Logger,
  documents: readonly string[],
): Promise<EmbeddedGateway> {
  const engine =
    config.GATEWAY_ENGINE === 'hive'
      ? await embedHive(config)
      : await embedApollo(config, logger, documents);
  const subgraphUrls = subgraphUrlsOf(config);
  return {
    engine: config.GATEWAY_ENGINE,
    execute: engine.execute,
    ready: () => subgraphsReady(subgraphUrls),
    close: engine.close,
  };
}

export { loadGatewayConfig, type GatewayConfig } from './config.js';
export type { ForwardedHeaders } from './subgraphs.js';

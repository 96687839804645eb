import { freePort } from './free-port.js';

/** One more set of the platform's services on the same databases (issue 16: N replicas). */
export interface ReplicaSetOptions {
  /** Added to the environment of every service of the set (e.g. `GATEWAY_ENGINE: 'hive'`). */
  env?: Record<string, string>;
  /**
   * Whether the set runs subgraphs of its own (default true); false: only a gateway and an
   * adapter in front of the first set's subgraphs (a second federation engine, for instance).
   */
  subgraphs?: boolean;
}

export interface ReplicaUrls {
  rest: string;
  gateway: string;
  lens: string;
  settlement: string;
}

/** How the first set was launched: each service's name, main and environment. */
export interface LaunchedSpec {
  name: string;
  main: string;
  env: Record<string, string>;
}

type Launch = (name: string, main: string, env: Record<string, string>) => Promise<void>;

/**
 * Starts the services of one more set exactly as the first set's were started (same mains, same
 * environment), on free ports and wired to each other.
 */
export async function launchReplicaSet(
  first: readonly LaunchedSpec[],
  set: ReplicaSetOptions,
  index: number,
  firstUrls: ReplicaUrls,
  launch: Launch,
): Promise<ReplicaUrls> {
  const spec = (name: string) => {
    const found = first.find((s) => s.name === name);
    if (!found) throw new Error(`no ${name} to replicate`);
    return found;
  };
  const again = (name: string, env: Record<string, string>) => {
    const { main, env: base } = spec(name);
    return launch(`${name} #${index}`, main, { ...base, ...set.env, ...env });
  };
  const host = '127.0.0.1';
  const [lensPort, settlementPort, gatewayPort, restPort] = await Promise.all(
    Array.from({ length: 4 }, freePort),
  );
  const urls: ReplicaUrls = {
    lens: firstUrls.lens,
    settlement: firstUrls.settlement,
    gateway: `http://${host}:${gatewayPort}/graphql`,
    rest: `http://${host}:${restPort}`,
  };
  const launches: Promise<void>[] = [];
  if (set.subgraphs !== false) {
    urls.lens = `http://${host}:${lensPort}/graphql`;
    urls.settlement = `http://${host}:${settlementPort}/graphql`;
    launches.push(
      again('lens subgraph', { LENS_PORT: String(lensPort) }),
      again('settlement subgraph', { SETTLEMENT_PORT: String(settlementPort) }),
    );
  }
  const subgraphUrls = { LENS_SUBGRAPH_URL: urls.lens, SETTLEMENT_SUBGRAPH_URL: urls.settlement };
  // All at once, as the first set (stack.ts): none needs another to start. The adapter runs its
  // own gateway engine (issue 27) on the same subgraphs and the set's engine.
  launches.push(
    again('gateway', { GATEWAY_PORT: String(gatewayPort), ...subgraphUrls }),
    again('rest adapter', { REST_PORT: String(restPort), ...subgraphUrls }),
  );
  await Promise.all(launches);
  return urls;
}

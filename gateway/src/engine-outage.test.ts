import { describe, expect, it } from 'vitest';
import { loadGatewayConfig } from './config.js';
import { startHiveGateway } from './hive.js';
import { startGateway } from './server.js';

/**
 * Issue 27: both engines call subgraphs through the undici pools of subgraph-fetcher.ts; an
 * unreachable subgraph must still reach the caller as the catalogue's SERVICE_UNAVAILABLE on
 * every engine and planner (a port nothing listens on: 9, discard).
 */
describe('a subgraph that cannot be reached, on each engine', () => {
  const engines = [
    { GATEWAY_ENGINE: 'apollo', GATEWAY_QUERY_PLANNER: 'javascript' },
    { GATEWAY_ENGINE: 'hive', GATEWAY_QUERY_PLANNER: 'javascript' },
    { GATEWAY_ENGINE: 'hive', GATEWAY_QUERY_PLANNER: 'rust' },
  ];
  it.each(engines)('$GATEWAY_ENGINE ($GATEWAY_QUERY_PLANNER planner)', async (engine) => {
    const config = loadGatewayConfig({
      ...engine,
      GATEWAY_PORT: '0',
      LENS_SUBGRAPH_URL: 'http://127.0.0.1:9/graphql',
      SETTLEMENT_SUBGRAPH_URL: 'http://127.0.0.1:9/graphql',
      LOG_LEVEL: 'silent',
    });
    const server =
      config.GATEWAY_ENGINE === 'hive'
        ? await startHiveGateway(config)
        : await startGateway(config);
    try {
      const response = await fetch(`${server.url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: '{ settlements(limit: 1) { total } }' }),
      });
      const body = (await response.json()) as { errors?: { extensions?: { code?: string } }[] };
      expect(body.errors?.[0]?.extensions?.code, JSON.stringify(body)).toBe('SERVICE_UNAVAILABLE');
    } finally {
      await server.close();
    }
  });
});

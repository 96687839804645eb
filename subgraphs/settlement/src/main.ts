import 'reflect-metadata';
import { startTelemetry } from '@campaign/platform/telemetry';

// Tracing first (issue 26): its module hooks must see fastify, pg and undici load.
const telemetry = await startTelemetry('settlement');
const { runService } = await import('@campaign/platform');
const { loadSettlementConfig } = await import('./config.js');
const { startSettlementSubgraph } = await import('./server.js');

await runService('settlement subgraph', () => startSettlementSubgraph(loadSettlementConfig()), {
  close: telemetry.shutdown,
});

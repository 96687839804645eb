import 'reflect-metadata';
import { startTelemetry } from '@campaign/platform/telemetry';

// Tracing first (issue 26): its module hooks must see fastify, pg and undici load.
const telemetry = await startTelemetry('lens');
const { runService, survivesUnhandledRejections } = await import('@campaign/platform');
const { loadLensConfig } = await import('./config.js');
const { startLensSubgraph } = await import('./server.js');

// Lens runs durable work (job runner, reconciler, lease renewals) beside its API; a database
// outage must leave it running so that it executes again when the database is back (issue 9).
survivesUnhandledRejections('lens subgraph');
await runService('lens subgraph', () => startLensSubgraph(loadLensConfig()), {
  close: telemetry.shutdown,
});

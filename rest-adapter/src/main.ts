import { startTelemetry } from '@campaign/platform/telemetry';

// Tracing first (issue 26): its module hooks must see fastify and undici load.
const telemetry = await startTelemetry('rest-adapter');
const { runService } = await import('@campaign/platform');
const { loadRestAdapterConfig } = await import('./config.js');
const { startRestAdapter } = await import('./server.js');

await runService('rest adapter', () => startRestAdapter(loadRestAdapterConfig()), {
  close: telemetry.shutdown,
});

import { startTelemetry } from '@campaign/platform/telemetry';

// Tracing first (issue 26): its module hooks must see fastify and undici load.
const telemetry = await startTelemetry('gateway');
const { runService } = await import('@campaign/platform');
const { loadGatewayConfig } = await import('./config.js');

// Only the selected engine is loaded: each engine's libraries cost a process tens of MB.
await runService(
  'gateway',
  async () => {
    const config = loadGatewayConfig();
    if (config.GATEWAY_ENGINE === 'hive') {
      const { startHiveGateway } = await import('./hive.js');
      return startHiveGateway(config);
    }
    const { startGateway } = await import('./server.js');
    return startGateway(config);
  },
  { close: telemetry.shutdown },
);

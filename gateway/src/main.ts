import { runTracedService } from '@campaign/platform/telemetry';

await runTracedService('gateway', 'gateway', async () => {
  const { loadGatewayConfig } = await import('./config.js');
  const config = loadGatewayConfig();
  // Only the selected engine is loaded: each engine's libraries cost a process tens of MB.
  if (config.GATEWAY_ENGINE === 'hive') {
    const { startHiveGateway } = await import('./hive.js');
    return startHiveGateway(config);
  }
  const { startGateway } = await import('./server.js');
  return startGateway(config);
});

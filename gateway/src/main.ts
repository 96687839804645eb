import { runService } from '@campaign/platform';
import { loadGatewayConfig } from './config.js';

// Only the selected engine is loaded: each engine's libraries cost a process tens of MB.
await runService('gateway', async () => {
  const config = loadGatewayConfig();
  if (config.GATEWAY_ENGINE === 'hive') {
    const { startHiveGateway } = await import('./hive.js');
    return startHiveGateway(config);
  }
  const { startGateway } = await import('./server.js');
  return startGateway(config);
});

import { runTracedService } from '@campaign/platform/telemetry';

await runTracedService('rest-adapter', 'rest adapter', async () => {
  const { loadRestAdapterConfig } = await import('./config.js');
  const { startRestAdapter } = await import('./server.js');
  return startRestAdapter(loadRestAdapterConfig());
});

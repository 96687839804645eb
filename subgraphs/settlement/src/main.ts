import 'reflect-metadata';
import { runTracedService } from '@campaign/platform/telemetry';

await runTracedService('settlement', 'settlement subgraph', async () => {
  const { loadSettlementConfig } = await import('./config.js');
  const { startSettlementSubgraph } = await import('./server.js');
  return startSettlementSubgraph(loadSettlementConfig());
});

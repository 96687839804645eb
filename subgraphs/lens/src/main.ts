import 'reflect-metadata';
import { runTracedService } from '@campaign/platform/telemetry';

await runTracedService('lens', 'lens subgraph', async () => {
  const { survivesUnhandledRejections } = await import('@campaign/platform');
  // Lens runs durable work (job runner, reconciler, lease renewals) beside its API; a database
  // outage must leave it running so that it executes again when the database is back (issue 9).
  survivesUnhandledRejections('lens subgraph');
  const { loadLensConfig } = await import('./config.js');
  const { startLensSubgraph } = await import('./server.js');
  return startLensSubgraph(loadLensConfig());
});

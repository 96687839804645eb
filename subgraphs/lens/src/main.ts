import 'reflect-metadata';
import { runService, survivesUnhandledRejections } from '@campaign/platform';
import { loadLensConfig } from './config.js';
import { startLensSubgraph } from './server.js';

// Lens runs durable work (job runner, reconciler, lease renewals) beside its API; a database
// outage must leave it running so that it executes again when the database is back (issue 9).
survivesUnhandledRejections('lens subgraph');
await runService('lens subgraph', () => startLensSubgraph(loadLensConfig()));

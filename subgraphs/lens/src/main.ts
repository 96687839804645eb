import 'reflect-metadata';
import { runService } from '@campaign/platform';
import { loadLensConfig } from './config.js';
import { startLensSubgraph } from './server.js';

await runService('lens subgraph', () => startLensSubgraph(loadLensConfig()));

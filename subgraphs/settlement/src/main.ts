import 'reflect-metadata';
import { runService } from '@campaign/platform';
import { loadSettlementConfig } from './config.js';
import { startSettlementSubgraph } from './server.js';

await runService('settlement subgraph', () => startSettlementSubgraph(loadSettlementConfig()));

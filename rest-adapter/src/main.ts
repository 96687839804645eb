import { runService } from '@campaign/platform';
import { loadRestAdapterConfig } from './config.js';
import { startRestAdapter } from './server.js';

await runService('rest adapter', () => startRestAdapter(loadRestAdapterConfig()));

import { runService } from '@campaign/platform';
import { loadGatewayConfig } from './config.js';
import { startGateway } from './server.js';

await runService('gateway', () => startGateway(loadGatewayConfig()));

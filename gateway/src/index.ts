export { startGateway } from './server.js';
export { loadGatewayConfig, type GatewayConfig } from './config.js';
export { startHiveGateway } from './hive.js';

export { startRestAdapter } from './server.js';
export { loadRestAdapterConfig, type RestAdapterConfig } from './config.js';

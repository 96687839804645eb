export * from './config.js';
export * from './http.js';
export * from './logger.js';
export * from './service-runner.js';
export * from './graphql-server.js';
export * from './federation.js';
export * from './orm.js';

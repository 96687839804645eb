export * from './errors.js';
export * from './decimal-scalar.js';
export * from './supergraph.js';
export * from './lens-input.js';
export * from './lens-operations.js';
export * from './lens-openapi.js';
export * from './lens-usage.js';
export * from './graphql-json-schema.js';

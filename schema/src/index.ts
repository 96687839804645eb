export * from './errors.js';
export * from './decimal-scalar.js';

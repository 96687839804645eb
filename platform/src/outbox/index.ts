export * from './outbox.repository.js';
export * from './outbox-enqueue.repository.js';
export * from './outbox-config.js';
export * from './outbox-table.js';
export * from './delivered-memory.js';
export * from './delivery.js';
export * from './outbox-worker.js';

export * from './mailer.port.js';
export * from './smtp-mailer.js';
export * from './mail-config.js';

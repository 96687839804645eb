export { startMailSink, type MailSinkOptions, type RunningMailSink } from './server.js';
export type { SinkMessage } from './messages.js';

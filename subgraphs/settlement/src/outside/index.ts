/**
 * The outside systems of the settlement subgraph (issue 11): each a port with a real adapter.
 * Simulated counterparts for the embedded stack live in `providers/src/`.
 */
export * from './errors.js';
export * from './config.js';
export * from './systems.js';
export * from './mail/mailer.port.js';
export { SmtpMailer, type SmtpMailerOptions } from './mail/smtp-mailer.js';
export * from './chat/team-chat.port.js';
export { WebhookTeamChat, type WebhookTeamChatOptions } from './chat/webhook-team-chat.js';
export * from './tax-invoice/tax-invoice.port.js';
export {
  HttpTaxInvoiceProvider,
  type HttpTaxInvoiceProviderOptions,
} from './tax-invoice/http-tax-invoice-provider.js';
export * from './tax-invoice/webhook-event.js';
export * from './tax-authority/business-status.port.js';
export {
  NtsBusinessStatusService,
  NTS_STATUS_PATH,
  type NtsBusinessStatusOptions,
} from './tax-authority/nts-business-status.js';

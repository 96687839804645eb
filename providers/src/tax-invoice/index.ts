export {
  APPROVAL_URL_TTL_MS,
  DEFAULT_TAX_INVOICE_DELAY_MS,
  startTaxInvoiceSimulator,
  type RunningTaxInvoiceSimulator,
  type TaxInvoiceSimulatorOptions,
} from './server.js';
export { DEFAULT_WEBHOOK_RETRY_DELAYS_MS } from './webhook-sender.js';
export { scenarioOf, type IssuanceResource, type Scenario, type WebhookEvent } from './protocol.js';

/** The settlement package's public face: what the CLI, the seed, the tools and the tests may use. */
export { loadSettlementConfig, type SettlementConfig } from './config.js';
export { initSettlementOrm, migrateSettlement } from './orm.js';
export { createSettlementServices, type SettlementServices } from './services.js';
// The schema and a request's loaders: the service tier executes queries as the server does.
export { buildSettlementSchema } from './schema.js';
export { createLoaders } from './api/loaders.js';
export { Agency } from './domain/agency/agency.entity.js';
export { SettlementAuditEntry } from './journal/audit/settlement-audit.entity.js';
export { Campaign } from './domain/campaign/campaign.entity.js';
export { ChangeAuditEntry } from './journal/audit/change-audit.entity.js';
export { Quotation, QuotationLine } from './domain/quotation/quotation.entity.js';
export { AdvertiserInvoice } from './domain/invoice/advertiser-invoice.entity.js';
export { PartnerPayout } from './domain/payout/partner-payout.entity.js';
export { ReverseIssuance } from './domain/reverse-issuance/reverse-issuance.entity.js';
export { Settlement } from './domain/settlement/settlement.entity.js';
export {
  settlementStatuses,
  type SettlementStatus,
  type SettlementType,
} from './kernel/settlement-types.js';
export { businessNumberField } from './kernel/business-number/index.js';
export { BUSINESS_VERIFY_LIMIT } from './flows/business/business-verification.service.js';
export {
  BusinessStatusUnavailableError,
  type BusinessStatus,
  type BusinessStatusService,
} from './outside/tax-authority/business-status.port.js';
// Outbox delivery (issue 11): what the service tier drives against a real database.
export { settlementOutbox } from './journal/outbox/outbox.js';
export {
  deliveryHandlers,
  type ChannelHandlers,
  type OutboxRow,
} from './journal/outbox/channel-handler.js';
// The tax-invoice provider (issue 11, S11): the port (all of it: what an adapter implements),
// and what the service tier drives.
export * from './outside/tax-invoice/tax-invoice.port.js';
export { createProviderRequestHandler } from './flows/tax-invoice/provider-requests.js';
// The webhook body's rule, which the settlement OpenAPI document publishes (issue 15).
export { taxInvoiceWebhookEventSchema } from './outside/tax-invoice/webhook-event.js';
export { inputRuleJsonSchemas } from './api/input-schemas.js';

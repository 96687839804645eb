/** The settlement package's public face: what the CLI, the seed, the tools and the tests may use. */
export { loadSettlementConfig, type SettlementConfig } from './config.js';
export { initSettlementOrm, migrateSettlement } from './orm.js';
export { createSettlementServices, type SettlementServices } from './services.js';
export { Agency } from './agency/agency.entity.js';
export { SettlementAuditEntry } from './audit/settlement-audit.entity.js';
export { Campaign } from './campaign/campaign.entity.js';
export { ChangeAuditEntry } from './audit/change-audit.entity.js';
export { Quotation, QuotationLine } from './quotation/quotation.entity.js';
export { AdvertiserInvoice } from './invoice/advertiser-invoice.entity.js';
export { PartnerPayout } from './payout/partner-payout.entity.js';
export { ReverseIssuance } from './reverse-issuance/reverse-issuance.entity.js';
export { Settlement } from './settlement/settlement.entity.js';
export type { SettlementType } from './settlement/settlement-types.js';
export { BUSINESS_VERIFY_LIMIT, businessNumberField } from './business/index.js';
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
// The tax-invoice provider (issue 11, S11): the port, and what the service tier drives.
export {
  TaxInvoiceProviderError,
  type ForwardIssuanceRequest,
  type Issuance,
  type ReverseIssuanceRequest,
  type TaxInvoiceProvider,
} from './outside/tax-invoice/tax-invoice.port.js';
export { createProviderRequestHandler } from './tax-invoice/provider-requests.js';
// The webhook body's rule, which the settlement OpenAPI document publishes (issue 15).
export { taxInvoiceWebhookEventSchema } from './outside/tax-invoice/webhook-event.js';

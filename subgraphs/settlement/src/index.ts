/** The settlement package's public face: what the CLI, the seed, the tools and the tests may use. */
export { loadSettlementConfig, type SettlementConfig } from './config.js';
export { initSettlementOrm, migrateSettlement } from './orm.js';
export { createSettlementServices, type SettlementServices } from './services.js';
export { Agency } from './agency/agency.entity.js';
export { SettlementAuditEntry } from './audit/settlement-audit.entity.js';
export { Campaign } from './campaign/campaign.entity.js';
export { AdvertiserInvoice } from './invoice/advertiser-invoice.entity.js';
export { PartnerPayout } from './payout/partner-payout.entity.js';
export { ReverseIssuance } from './reverse-issuance/reverse-issuance.entity.js';
export { Settlement } from './settlement/settlement.entity.js';
export type { SettlementType } from './settlement/settlement-types.js';

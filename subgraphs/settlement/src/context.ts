import type DataLoader from 'dataloader';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { ChangeAuditEntry } from './audit/change-audit.entity.js';
import type { SettlementAuditEntry } from './audit/settlement-audit.entity.js';
import type { Principal } from './auth/principal.js';
import type { Campaign } from './campaign/campaign.entity.js';
import type { AdvertiserInvoice } from './invoice/advertiser-invoice.entity.js';
import type { Partner } from './partner/partner.entity.js';
import type { PartnerPayout } from './payout/partner-payout.entity.js';
import type { QuotationLine } from './quotation/quotation.entity.js';
import type { ReverseIssuance } from './reverse-issuance/reverse-issuance.entity.js';
import type { SettlementServices } from './services.js';
import type { Settlement } from './settlement/settlement.entity.js';

export interface SettlementLoaders {
  partner: DataLoader<string, Partner | null>;
  campaign: DataLoader<string, Campaign | null>;
  settlementByCampaign: DataLoader<string, Settlement | null>;
  advertiserInvoice: DataLoader<string, AdvertiserInvoice | null>;
  partnerPayout: DataLoader<string, PartnerPayout | null>;
  reverseIssuanceBySettlement: DataLoader<string, ReverseIssuance | null>;
  auditBySettlement: DataLoader<string, SettlementAuditEntry[]>;
  settlementsByInvoice: DataLoader<string, Settlement[]>;
  settlementsByPayout: DataLoader<string, Settlement[]>;
  /** By `<entity type>:<id>` (change-audit.loader.ts). */
  changeAudit: DataLoader<string, ChangeAuditEntry[]>;
  quotationLines: DataLoader<string, QuotationLine[]>;
}

export interface SettlementContext {
  /** One EntityManager fork per request. */
  em: EntityManager;
  requestId: string;
  /** The caller's address as the gateway saw it (X-Forwarded-For): the public rate limit's key. */
  clientAddress: string;
  services: SettlementServices;
  /** The verified caller; throws UNAUTHENTICATED on first use when the token is missing or bad. */
  principal: () => Promise<Principal>;
  loaders: SettlementLoaders;
}

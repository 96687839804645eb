import type DataLoader from 'dataloader';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { AgencyChanges } from '../domain/agency/agency-changes.js';
import type { AgencyService } from '../domain/agency/agency.service.js';
import type { PartnerService } from '../domain/partner/partner.service.js';
import type { QuotationFiles } from '../domain/quotation/quotation-files.js';
import type { QuotationService } from '../domain/quotation/quotation.service.js';
import type { SettlementQueryService } from '../domain/settlement/settlement-query.service.js';
import type { BusinessVerificationService } from '../flows/business/business-verification.service.js';
import type { CampaignChange } from '../flows/campaign-change.js';
import type { CampaignUpload } from '../flows/campaign-upload.js';
import type { QuotationChanges } from '../flows/quotation/quotation-changes.js';
import type { QuotationExecution } from '../flows/quotation/quotation-execution.js';
import type { SettlementWorkflow } from '../flows/settlement-workflow.js';
import type { TaxInvoiceService } from '../flows/tax-invoice/tax-invoice.service.js';
import type { WorkflowServices } from '../flows/workflow-services.js';
import type { OutboxAdminService } from '../journal/outbox/outbox-admin.js';
import type { ChangeAuditEntry } from '../journal/audit/change-audit.entity.js';
import type { SettlementAuditEntry } from '../journal/audit/settlement-audit.entity.js';
import type { Principal } from '../kernel/principal.js';
import type { Campaign } from '../domain/campaign/campaign.entity.js';
import type { AdvertiserInvoice } from '../domain/invoice/advertiser-invoice.entity.js';
import type { Partner } from '../domain/partner/partner.entity.js';
import type { PartnerPayout } from '../domain/payout/partner-payout.entity.js';
import type { QuotationLine } from '../domain/quotation/quotation.entity.js';
import type { ReverseIssuance } from '../domain/reverse-issuance/reverse-issuance.entity.js';
import type { Settlement } from '../domain/settlement/settlement.entity.js';
import type { Stored } from '../domain/settlement/settlement-reads.repository.js';
import type { SettledLoader } from './settled-loader.js';

export interface SettlementLoaders {
  partner: SettledLoader<Stored<Partner> | null>;
  campaign: SettledLoader<Campaign | null>;
  settlementByCampaign: SettledLoader<Settlement | null>;
  advertiserInvoice: SettledLoader<Stored<AdvertiserInvoice> | null>;
  partnerPayout: SettledLoader<Stored<PartnerPayout> | null>;
  reverseIssuanceBySettlement: SettledLoader<Stored<ReverseIssuance> | null>;
  auditBySettlement: DataLoader<string, SettlementAuditEntry[]>;
  settlementsByInvoice: DataLoader<string, Settlement[]>;
  settlementsByPayout: DataLoader<string, Settlement[]>;
  /** By `<entity type>:<id>` (change-audit.loader.ts). */
  changeAudit: DataLoader<string, ChangeAuditEntry[]>;
  quotationLines: DataLoader<string, QuotationLine[]>;
}

export interface SettlementContext {
  /** The request's EntityManager: one fork per request, made on first use. */
  em: EntityManager;
  /**
   * The ORM's root EntityManager, for reads outside any transaction on prepared statements
   * (settlement-reads.repository.ts, the detail): stored rows, no identity map, so no fork.
   * MikroORM refuses entity work on it (allowGlobalContext is off): use `em` for that.
   */
  reads: EntityManager;
  requestId: string;
  /** The caller's address as the gateway saw it (X-Forwarded-For): the public rate limit's key. */
  clientAddress: string;
  services: SettlementServices;
  /** The verified caller; throws UNAUTHENTICATED on first use when the token is missing or bad. */
  principal: () => Promise<Principal>;
  loaders: SettlementLoaders;
}

/** The long-lived services, made once at start by the composition root (services.ts) and shared by every request (context.services). */
export interface SettlementServices extends WorkflowServices {
  agencies: AgencyService;
  /** Agency create, update, deactivation (spec 4.4). */
  agencyChanges: AgencyChanges;
  /** updateCampaign and the settlement following it (issue 12). */
  campaignChange: CampaignChange;
  /** markCampaignUploaded: the campaign's settlement is made here. */
  campaignUpload: CampaignUpload;
  /** Quotations (spec 4.5): reads, changes, execute, workbooks. */
  quotations: QuotationService;
  quotationChanges: QuotationChanges;
  quotationExecution: QuotationExecution;
  quotationFiles: QuotationFiles;
  partners: PartnerService;
  queries: SettlementQueryService;
  workflow: SettlementWorkflow;
  businessVerification: BusinessVerificationService;
  /** Dead outbox messages and their re-queueing (admins). */
  outbox: OutboxAdminService;
  /** The tax-invoice provider integration (S11): webhook, approval URLs, live status. */
  taxInvoices: TaxInvoiceService;
}

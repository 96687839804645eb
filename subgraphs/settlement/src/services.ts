import { PostgresRateLimiter, type Logger } from '@campaign/platform';
import { AgencyChanges } from './agency/agency-changes.js';
import { AgencyService } from './agency/agency.service.js';
import { BusinessVerificationService } from './business/business-verification.service.js';
import { CampaignChange } from './campaign/campaign-change.js';
import { CampaignService } from './campaign/campaign.service.js';
import { InvoiceService } from './invoice/invoice.service.js';
import { OutboxAdminService } from './journal/outbox/outbox-admin.js';
import type { OutsideSystems } from './outside/systems.js';
import {
  BusinessStatusUnavailableError,
  type BusinessStatusService,
} from './outside/tax-authority/business-status.port.js';
import { PartnerService } from './partner/partner.service.js';
import { PayoutService } from './payout/payout.service.js';
import { QuotationChanges } from './quotation/quotation-changes.js';
import { QuotationExecution } from './quotation/quotation-execution.js';
import { QuotationFiles } from './quotation/quotation-files.js';
import { QuotationService } from './quotation/quotation.service.js';
import { ReverseIssuanceService } from './reverse-issuance/reverse-issuance.service.js';
import { SettlementQueryService } from './settlement/settlement-query.service.js';
import { SettlementService } from './settlement/settlement.service.js';
import { TaxInvoiceService } from './tax-invoice/tax-invoice.service.js';
import {
  createSettlementWorkflow,
  type SettlementWorkflow,
  type WorkflowServices,
} from './settlement/workflow/settlement-workflow.js';

/** The long-lived services, made once at start and shared by every request (context.services). */
export interface SettlementServices extends WorkflowServices {
  agencies: AgencyService;
  /** Agency create, update, deactivation (spec 4.4). */
  agencyChanges: AgencyChanges;
  /** updateCampaign and the settlement following it (issue 12). */
  campaignChange: CampaignChange;
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

/** What the services reach outside the database; absent parts are "not connected". */
export interface SettlementServiceParts {
  outside?: Partial<
    Pick<OutsideSystems, 'businessStatus' | 'taxInvoiceProvider' | 'taxInvoiceWebhookSecret'>
  >;
  /** How long the partner's request waits for its approval URL (TAX_INVOICE_INLINE_WAIT_MS). */
  taxInvoiceInlineWaitMs?: number;
  logger?: Logger;
}

/** The seed and the service tests need no tax authority: asking one is an outage (503). */
const noTaxAuthority: BusinessStatusService = {
  lookup: () =>
    Promise.reject(new BusinessStatusUnavailableError('UNREACHABLE', 'no tax authority connected')),
};

/** The one place services are made: the subgraph, the demo seed and the service tests use it. */
export function createSettlementServices(parts: SettlementServiceParts = {}): SettlementServices {
  const agencies = new AgencyService();
  const settlements = new SettlementService(agencies);
  const owners: WorkflowServices = {
    settlements,
    campaigns: new CampaignService(settlements, agencies),
    invoices: new InvoiceService(),
    payouts: new PayoutService(),
    reverseIssuances: new ReverseIssuanceService(),
  };
  const quotations = new QuotationService(agencies);
  const quotationExecution = new QuotationExecution(quotations, agencies, owners.campaigns);
  return {
    ...owners,
    agencies,
    agencyChanges: new AgencyChanges(agencies),
    campaignChange: new CampaignChange(owners, agencies),
    quotations,
    quotationChanges: new QuotationChanges(quotations, quotationExecution),
    quotationExecution,
    quotationFiles: new QuotationFiles(quotations),
    partners: new PartnerService(),
    queries: new SettlementQueryService(agencies),
    workflow: createSettlementWorkflow(owners),
    outbox: new OutboxAdminService(agencies),
    businessVerification: new BusinessVerificationService({
      businessStatus: parts.outside?.businessStatus ?? noTaxAuthority,
      limiter: new PostgresRateLimiter({ subject: 'from this address' }),
      ...(parts.logger ? { logger: parts.logger } : {}),
    }),
    taxInvoices: new TaxInvoiceService(owners, {
      ...(parts.outside?.taxInvoiceProvider ? { provider: parts.outside.taxInvoiceProvider } : {}),
      ...(parts.outside?.taxInvoiceWebhookSecret
        ? { webhookSecret: parts.outside.taxInvoiceWebhookSecret }
        : {}),
      ...(parts.taxInvoiceInlineWaitMs !== undefined
        ? { inlineWaitMs: parts.taxInvoiceInlineWaitMs }
        : {}),
      ...(parts.logger ? { logger: parts.logger } : {}),
    }),
  };
}

import { PostgresRateLimiter, type Logger } from '@campaign/platform';
import { AgencyChanges } from './domain/agency/agency-changes.js';
import { AgencyService } from './domain/agency/agency.service.js';
import { BusinessVerificationService } from './flows/business/business-verification.service.js';
import { CampaignChange } from './flows/campaign-change.js';
import { CampaignUpload } from './flows/campaign-upload.js';
import { CampaignService } from './domain/campaign/campaign.service.js';
import { InvoiceService } from './domain/invoice/invoice.service.js';
import { OutboxAdminService } from './journal/outbox/outbox-admin.js';
import type { OutsideSystems } from './outside/systems.js';
import {
  BusinessStatusUnavailableError,
  type BusinessStatusService,
} from './outside/tax-authority/business-status.port.js';
import { PartnerService } from './domain/partner/partner.service.js';
import { PayoutService } from './domain/payout/payout.service.js';
import { QuotationChanges } from './flows/quotation/quotation-changes.js';
import { QuotationExecution } from './flows/quotation/quotation-execution.js';
import { QuotationFiles } from './domain/quotation/quotation-files.js';
import { QuotationService } from './domain/quotation/quotation.service.js';
import { ReverseIssuanceService } from './domain/reverse-issuance/reverse-issuance.service.js';
import { SettlementQueryService } from './domain/settlement/settlement-query.service.js';
import { SettlementService } from './domain/settlement/settlement.service.js';
import { TaxInvoiceService } from './flows/tax-invoice/tax-invoice.service.js';
import { createSettlementWorkflow } from './flows/settlement-workflow.js';
import type { WorkflowServices } from './flows/workflow-services.js';
import type { SettlementServices } from './api/context.js';

export type { SettlementServices };

/** What the services reach outside the database; absent parts are "not connected". */
export interface SettlementServiceParts {
  outside?: Partial<
    Pick<OutsideSystems, 'businessStatus' | 'taxInvoiceProvider' | 'taxInvoiceWebhookSecret'>
  >;
  /** How long the partner's request waits for its approval URL (TAX_INVOICE_INLINE_WAIT_MS). */
  taxInvoiceInlineWaitMs?: number;
  /** INVOICE_DUE_DAYS (issue 23). */
  invoiceDueDays?: number;
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
    campaigns: new CampaignService(agencies),
    invoices: new InvoiceService(parts.invoiceDueDays),
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
    campaignUpload: new CampaignUpload(owners.campaigns, settlements),
    quotations,
    quotationChanges: new QuotationChanges(quotations, quotationExecution),
    quotationExecution,
    quotationFiles: new QuotationFiles(quotations),
    partners: new PartnerService(),
    queries: new SettlementQueryService(agencies, settlements),
    workflow: createSettlementWorkflow(owners),
    outbox: new OutboxAdminService((em) => agencies.defaultAgencyId(em)),
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

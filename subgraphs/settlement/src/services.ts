import { AgencyService } from './agency/agency.service.js';
import { CampaignService } from './campaign/campaign.service.js';
import { InvoiceService } from './invoice/invoice.service.js';
import { PartnerService } from './partner/partner.service.js';
import { PayoutService } from './payout/payout.service.js';
import { ReverseIssuanceService } from './reverse-issuance/reverse-issuance.service.js';
import { SettlementQueryService } from './settlement/settlement-query.service.js';
import { SettlementService } from './settlement/settlement.service.js';
import {
  createSettlementWorkflow,
  type SettlementWorkflow,
  type WorkflowServices,
} from './settlement/workflow/settlement-workflow.js';

/** The long-lived services, made once at start and shared by every request (context.services). */
export interface SettlementServices extends WorkflowServices {
  agencies: AgencyService;
  partners: PartnerService;
  queries: SettlementQueryService;
  workflow: SettlementWorkflow;
}

/** The one place services are made: the subgraph, the demo seed and the service tests use it. */
export function createSettlementServices(): SettlementServices {
  const agencies = new AgencyService();
  const settlements = new SettlementService(agencies);
  const owners: WorkflowServices = {
    settlements,
    campaigns: new CampaignService(settlements, agencies),
    invoices: new InvoiceService(),
    payouts: new PayoutService(),
    reverseIssuances: new ReverseIssuanceService(),
  };
  return {
    ...owners,
    agencies,
    partners: new PartnerService(),
    queries: new SettlementQueryService(agencies),
    workflow: createSettlementWorkflow(owners),
  };
}

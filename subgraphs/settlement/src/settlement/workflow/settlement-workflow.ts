import type { CampaignService } from '../../campaign/campaign.service.js';
import type { InvoiceService } from '../../invoice/invoice.service.js';
import type { PayoutService } from '../../payout/payout.service.js';
import type { ReverseIssuanceService } from '../../reverse-issuance/reverse-issuance.service.js';
import type { SettlementService } from '../settlement.service.js';
import { SettlementCancellation } from './cancel.js';
import { DirectInvoiceFlow } from './direct-flow.js';
import { PlatformSettlementFlow } from './platform-flow.js';
import { PartnerRequest } from './request.js';
import { StatusChange } from './status-change.js';
import { SettlementTypeChange } from './type-change.js';

/** The services a trigger calls: each the only writer of its table, called with plain values. */
export interface WorkflowServices {
  settlements: SettlementService;
  campaigns: CampaignService;
  invoices: InvoiceService;
  payouts: PayoutService;
  reverseIssuances: ReverseIssuanceService;
}

/** Every trigger of spec section 3, by family. */
export interface SettlementWorkflow {
  /** request (both types). */
  partnerRequest: PartnerRequest;
  /** retry-issuance, ADVERTISER_PAID, start-payout, tax invoice received, complete. */
  platformFlow: PlatformSettlementFlow;
  /** invoice-issued, invoice-paid. */
  directFlow: DirectInvoiceFlow;
  typeChange: SettlementTypeChange;
  cancellation: SettlementCancellation;
  /** PATCH status: dispatches to the trigger of the target status. */
  statusChange: StatusChange;
}

export function createSettlementWorkflow(services: WorkflowServices): SettlementWorkflow {
  const partnerRequest = new PartnerRequest(services);
  const platformFlow = new PlatformSettlementFlow(services);
  const cancellation = new SettlementCancellation(services);
  return {
    partnerRequest,
    platformFlow,
    directFlow: new DirectInvoiceFlow(services),
    typeChange: new SettlementTypeChange(services),
    cancellation,
    statusChange: new StatusChange(services, { partnerRequest, platformFlow, cancellation }),
  };
}

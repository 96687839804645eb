import type { WorkflowServices } from './workflow-services.js';
import { SettlementCancellation } from './cancel.js';
import { DirectInvoiceFlow } from './direct-flow.js';
import { PlatformSettlementFlow } from './platform-flow.js';
import { PartnerRequest } from './request.js';
import { ReverseIssuanceRetry } from './reverse-retry.js';
import { StatusChange } from './status-change.js';
import { SettlementTypeChange } from './type-change.js';

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
  /** A failed or cancelled reverse issuance started again (issue 23). */
  reverseRetry: ReverseIssuanceRetry;
  /** PATCH status: dispatches to the trigger of the target status. */
  statusChange: StatusChange;
}

export type { WorkflowServices };

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
    reverseRetry: new ReverseIssuanceRetry(services),
    statusChange: new StatusChange(services, { partnerRequest, platformFlow, cancellation }),
  };
}

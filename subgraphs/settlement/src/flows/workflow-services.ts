import type { CampaignService } from '../domain/campaign/campaign.service.js';
import type { InvoiceService } from '../domain/invoice/invoice.service.js';
import type { PayoutService } from '../domain/payout/payout.service.js';
import type { ReverseIssuanceService } from '../domain/reverse-issuance/reverse-issuance.service.js';
import type { SettlementService } from '../domain/settlement/settlement.service.js';

/** The services a trigger calls: each the only writer of its table, called with plain values. */
export interface WorkflowServices {
  settlements: SettlementService;
  campaigns: CampaignService;
  invoices: InvoiceService;
  payouts: PayoutService;
  reverseIssuances: ReverseIssuanceService;
}

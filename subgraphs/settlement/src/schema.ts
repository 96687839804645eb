import 'reflect-metadata';
import { buildFederatedSchema, type FederatedSchema } from '@campaign/platform/federation';
import { AccountReference } from './account/account.stub.js';
import { CampaignResolver } from './campaign/campaign.resolver.js';
import { AdvertiserInvoiceResolver } from './invoice/invoice.resolver.js';
import { PartnerResolver } from './partner/partner.resolver.js';
import { PartnerPayoutResolver } from './payout/payout.resolver.js';
import { PartnerSettlementResolver } from './settlement/partner-settlement.resolver.js';
import { SettlementResolver } from './settlement/settlement.resolver.js';

export function buildSettlementSchema(): Promise<FederatedSchema> {
  return buildFederatedSchema({
    resolvers: [
      CampaignResolver,
      PartnerResolver,
      SettlementResolver,
      PartnerSettlementResolver,
      AdvertiserInvoiceResolver,
      PartnerPayoutResolver,
    ],
    orphanedTypes: [AccountReference],
  });
}

import 'reflect-metadata';
import { platformAuthChecker } from '@campaign/platform';
import { buildFederatedSchema, type FederatedSchema } from '@campaign/platform';
import { AccountReference } from './account/account.stub.js';
import { AgencyResolver } from './agency/agency.resolver.js';
import { changeAuditResolvers } from './audit/change-audit.resolver.js';
import { BusinessVerificationResolver } from './business/business-verification.resolver.js';
import type { SettlementContext } from './context.js';
import { CampaignResolver } from './campaign/campaign.resolver.js';
import { AdvertiserInvoiceResolver } from './invoice/invoice.resolver.js';
import { OutboxResolver } from './journal/outbox/outbox.resolver.js';
import { PartnerResolver } from './partner/partner.resolver.js';
import { PartnerPayoutResolver } from './payout/payout.resolver.js';
import { QuotationResolver } from './quotation/quotation.resolver.js';
import {
  PartnerSettlementActionResolver,
  PartnerSettlementResolver,
} from './settlement/partner-settlement.resolver.js';
import { SettlementActionResolver, SettlementResolver } from './settlement/settlement.resolver.js';
import { TaxInvoiceWebhookResolver } from './tax-invoice/tax-invoice.resolver.js';

/**
 * Who may call an operation is declared on it with `@Authorized` (admin roles or PARTNER); the
 * platform's checker answers 401 without a valid token and 403 for another role. Which rows a
 * caller sees is the services' scope (auth/scope.ts): out of scope is 404.
 */
export function buildSettlementSchema(): Promise<FederatedSchema> {
  return buildFederatedSchema({
    authChecker: platformAuthChecker<SettlementContext>(),
    resolvers: [
      CampaignResolver,
      PartnerResolver,
      SettlementResolver,
      SettlementActionResolver,
      PartnerSettlementResolver,
      PartnerSettlementActionResolver,
      AdvertiserInvoiceResolver,
      PartnerPayoutResolver,
      BusinessVerificationResolver,
      OutboxResolver,
      TaxInvoiceWebhookResolver,
      AgencyResolver,
      QuotationResolver,
      ...changeAuditResolvers,
    ],
    orphanedTypes: [AccountReference],
  });
}

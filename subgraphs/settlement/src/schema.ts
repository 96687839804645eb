import 'reflect-metadata';
import { platformAuthChecker } from '@campaign/platform';
import { buildFederatedSchema, type FederatedSchema } from '@campaign/platform/subgraph';
import { AccountReference } from './domain/partner/account.stub.js';
import { AgencyResolver } from './api/agency.resolver.js';
import { changeAuditResolvers } from './api/change-audit.resolver.js';
import { BusinessVerificationResolver } from './api/business-verification.resolver.js';
import type { SettlementContext } from './api/context.js';
import { CampaignResolver } from './api/campaign.resolver.js';
import { AdvertiserInvoiceResolver } from './api/invoice.resolver.js';
import { OutboxResolver } from './api/outbox.resolver.js';
import { PartnerResolver } from './api/partner.resolver.js';
import { PartnerPayoutResolver } from './api/payout.resolver.js';
import { QuotationResolver } from './api/quotation.resolver.js';
import {
  PartnerSettlementActionResolver,
  PartnerSettlementResolver,
} from './api/partner-settlement.resolver.js';
import { SettlementActionResolver, SettlementResolver } from './api/settlement.resolver.js';
import { TaxInvoiceWebhookResolver } from './api/tax-invoice.resolver.js';

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

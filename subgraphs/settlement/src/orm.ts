import type { MikroORM } from '@mikro-orm/postgresql';
import { initSubgraphOrm, migrateSubgraph } from '@campaign/platform/subgraph';
import { Advertiser } from './domain/advertiser/advertiser.entity.js';
import { Agency } from './domain/agency/agency.entity.js';
import { ChangeAuditEntry } from './journal/audit/change-audit.entity.js';
import { SettlementAuditEntry } from './journal/audit/settlement-audit.entity.js';
import { Campaign } from './domain/campaign/campaign.entity.js';
import { AdvertiserInvoice } from './domain/invoice/advertiser-invoice.entity.js';
import { Partner } from './domain/partner/partner.entity.js';
import { PartnerPayout } from './domain/payout/partner-payout.entity.js';
import { Quotation, QuotationLine } from './domain/quotation/quotation.entity.js';
import { ReverseIssuance } from './domain/reverse-issuance/reverse-issuance.entity.js';
import { Settlement } from './domain/settlement/settlement.entity.js';

export const settlementEntities = [
  Agency,
  Advertiser,
  Partner,
  Campaign,
  Settlement,
  AdvertiserInvoice,
  PartnerPayout,
  ReverseIssuance,
  SettlementAuditEntry,
  ChangeAuditEntry,
  Quotation,
  QuotationLine,
];

export function initSettlementOrm(databaseUrl: string, poolMax = 10): Promise<MikroORM> {
  return initSubgraphOrm(databaseUrl, settlementEntities, poolMax);
}

/** The settlement tables, then graphile-worker's schema (the outbox delivery jobs). */
export function migrateSettlement(orm: MikroORM): Promise<void> {
  return migrateSubgraph(
    orm,
    async () => (await import('./migrations/index.js')).settlementMigrations,
  );
}

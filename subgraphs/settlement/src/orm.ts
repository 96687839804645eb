import { MikroORM } from '@mikro-orm/postgresql';
import { Migrator } from '@mikro-orm/migrations';
import { migrateJobQueue } from '@campaign/platform';
import { Advertiser } from './advertiser/advertiser.entity.js';
import { Agency } from './agency/agency.entity.js';
import { ChangeAuditEntry } from './audit/change-audit.entity.js';
import { SettlementAuditEntry } from './audit/settlement-audit.entity.js';
import { Campaign } from './campaign/campaign.entity.js';
import { AdvertiserInvoice } from './invoice/advertiser-invoice.entity.js';
import { settlementMigrations } from './migrations/index.js';
import { Partner } from './partner/partner.entity.js';
import { PartnerPayout } from './payout/partner-payout.entity.js';
import { Quotation, QuotationLine } from './quotation/quotation.entity.js';
import { ReverseIssuance } from './reverse-issuance/reverse-issuance.entity.js';
import { Settlement } from './settlement/settlement.entity.js';

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
  return MikroORM.init({
    clientUrl: databaseUrl,
    entities: settlementEntities,
    extensions: [Migrator],
    migrations: { migrationsList: settlementMigrations, transactional: true, snapshot: false },
    pool: { min: 0, max: poolMax },
    allowGlobalContext: false,
    debug: false,
  });
}

/** The settlement tables, then graphile-worker's schema (the outbox delivery jobs). */
export async function migrateSettlement(orm: MikroORM): Promise<void> {
  await orm.getMigrator().up();
  await migrateJobQueue(orm.config.get('clientUrl')!);
}

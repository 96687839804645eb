import { MikroORM } from '@mikro-orm/postgresql';
import { migrateJobQueue } from '@campaign/platform';
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
  return MikroORM.init({
    clientUrl: databaseUrl,
    entities: settlementEntities,
    // The migrator and the migration list are loaded by migrateSettlement only, as lens does: a
    // service never migrates (a deploy step), and they cost every process about 10 MB (issue 27).
    migrations: { transactional: true, snapshot: false },
    pool: { min: 0, max: poolMax },
    allowGlobalContext: false,
    debug: false,
  });
}

/** The settlement tables, then graphile-worker's schema (the outbox delivery jobs). */
export async function migrateSettlement(orm: MikroORM): Promise<void> {
  const [{ Migrator }, { settlementMigrations }] = await Promise.all([
    import('@mikro-orm/migrations'),
    import('./migrations/index.js'),
  ]);
  orm.config.set('migrations', {
    ...orm.config.get('migrations'),
    migrationsList: settlementMigrations,
  });
  await new Migrator(orm.em).up();
  await migrateJobQueue(orm.config.get('clientUrl')!);
}

import { MikroORM } from '@mikro-orm/postgresql';
import { Migrator } from '@mikro-orm/migrations';
import { Advertiser } from './advertiser/advertiser.entity.js';
import { Agency } from './agency/agency.entity.js';
import { Campaign } from './campaign/campaign.entity.js';
import { settlementMigrations } from './migrations/index.js';
import { Partner } from './partner/partner.entity.js';
import { Settlement } from './settlement/settlement.entity.js';

export const settlementEntities = [Agency, Advertiser, Partner, Campaign, Settlement];

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

export async function migrateSettlement(orm: MikroORM): Promise<void> {
  await orm.getMigrator().up();
}

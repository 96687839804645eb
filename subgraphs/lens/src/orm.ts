import { MikroORM } from '@mikro-orm/postgresql';
import { Migrator } from '@mikro-orm/migrations';
import { migrateJobQueue } from '@campaign/platform';
import { AccountObservation } from './account/account-observation.entity.js';
import { CreditLedgerEntry } from './credits/credit-ledger-entry.entity.js';
import { lensMigrations } from './migrations/index.js';
import { Operation } from './operation/operation.entity.js';
import { ApiKey } from './tenant/api-key.entity.js';
import { Tenant } from './tenant/tenant.entity.js';

export const lensEntities = [Tenant, ApiKey, Operation, CreditLedgerEntry, AccountObservation];

export function initLensOrm(databaseUrl: string, poolMax = 10): Promise<MikroORM> {
  return MikroORM.init({
    clientUrl: databaseUrl,
    entities: lensEntities,
    extensions: [Migrator],
    migrations: { migrationsList: lensMigrations, transactional: true, snapshot: false },
    pool: { min: 0, max: poolMax },
    allowGlobalContext: false,
    debug: false,
  });
}

/** The lens tables, then graphile-worker's schema (the durable jobs of the engine). */
export async function migrateLens(orm: MikroORM): Promise<void> {
  await orm.getMigrator().up();
  await migrateJobQueue(orm.config.get('clientUrl')!);
}

import { MikroORM } from '@mikro-orm/postgresql';
import { migrateJobQueue } from '@campaign/platform';
import { AccountObservation } from './account/account-observation.entity.js';
import { CreditLedgerEntry } from './credits/credit-ledger-entry.entity.js';
import { Operation } from './operation/operation.entity.js';
import { ApiKey } from './tenant/api-key.entity.js';
import { Tenant } from './tenant/tenant.entity.js';

export const lensEntities = [Tenant, ApiKey, Operation, CreditLedgerEntry, AccountObservation];

export function initLensOrm(databaseUrl: string, poolMax = 10): Promise<MikroORM> {
  return MikroORM.init({
    clientUrl: databaseUrl,
    entities: lensEntities,
    // The migrator and the migration list are loaded by migrateLens only: a service never
    // migrates (a deploy step), and @mikro-orm/migrations costs every process ~15 MB of memory.
    migrations: { transactional: true, snapshot: false },
    pool: { min: 0, max: poolMax },
    allowGlobalContext: false,
    debug: false,
  });
}

/** The lens tables, then graphile-worker's schema (the durable jobs of the engine). */
export async function migrateLens(orm: MikroORM): Promise<void> {
  const [{ Migrator }, { lensMigrations }] = await Promise.all([
    import('@mikro-orm/migrations'),
    import('./migrations/index.js'),
  ]);
  orm.config.set('migrations', { ...orm.config.get('migrations'), migrationsList: lensMigrations });
  await new Migrator(orm.em).up();
  await migrateJobQueue(orm.config.get('clientUrl')!);
}

import type { MikroORM } from '@mikro-orm/postgresql';
import { initSubgraphOrm, migrateSubgraph } from '@campaign/platform/subgraph';
import { AccountObservation } from './account/account-observation.entity.js';
import { CreditLedgerEntry } from './credits/credit-ledger-entry.entity.js';
import { Operation } from './operation/operation.entity.js';
import { ApiKey } from './tenant/api-key.entity.js';
import { Tenant } from './tenant/tenant.entity.js';

export const lensEntities = [Tenant, ApiKey, Operation, CreditLedgerEntry, AccountObservation];

export function initLensOrm(databaseUrl: string, poolMax = 10): Promise<MikroORM> {
  return initSubgraphOrm(databaseUrl, lensEntities, poolMax);
}

/** The lens tables, then graphile-worker's schema (the durable jobs of the engine). */
export function migrateLens(orm: MikroORM): Promise<void> {
  return migrateSubgraph(orm, async () => (await import('./migrations/index.js')).lensMigrations);
}

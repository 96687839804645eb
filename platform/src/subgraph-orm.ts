import type { MigrationObject } from '@mikro-orm/core';
import { MikroORM, type Options } from '@mikro-orm/postgresql';
import { migrateJobQueue } from './job-runner.js';

/**
 * A subgraph's ORM on `databaseUrl`: its entities, a pool of at most `poolMax`, no global
 * context. The migrator and the migration list are loaded by `migrateSubgraph` only: a service
 * never migrates (a deploy step), and @mikro-orm/migrations costs every process 10-15 MB of
 * memory (issue 27).
 */
export function initSubgraphOrm(
  databaseUrl: string,
  entities: NonNullable<Options['entities']>,
  poolMax: number,
): Promise<MikroORM> {
  return MikroORM.init({
    clientUrl: databaseUrl,
    entities,
    migrations: { transactional: true, snapshot: false },
    pool: { min: 0, max: poolMax },
    allowGlobalContext: false,
    debug: false,
  });
}

/** A subgraph's tables (`migrations`, loaded when asked), then graphile-worker's schema. */
export async function migrateSubgraph(
  orm: MikroORM,
  migrations: () => Promise<MigrationObject[]>,
): Promise<void> {
  const [{ Migrator }, migrationsList] = await Promise.all([
    import('@mikro-orm/migrations'),
    migrations(),
  ]);
  orm.config.set('migrations', { ...orm.config.get('migrations'), migrationsList });
  await new Migrator(orm.em).up();
  await migrateJobQueue(orm.config.get('clientUrl')!);
}

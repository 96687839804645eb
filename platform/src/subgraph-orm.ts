import type { MigrationObject } from '@mikro-orm/core';
import { MikroORM, type Options } from '@mikro-orm/postgresql';
import { migrateJobQueue } from './job-runner.js';

/**
 * A subgraph's ORM on `databaseUrl`: its entities, a pool of at most `poolMax`, no global
 * context. The migrator and the migration list are loaded by `migrateSubgraph` only: a service
 * never migrates (a deploy step), and @mikro-orm/migrations costs every process 10-15 MB of
 * memory (issue 27).
 */
export async function initSubgraphOrm(
  databaseUrl: string,
  entities: NonNullable<Options['entities']>,
  poolMax: number,
): Promise<MikroORM> {
  const orm = await MikroORM.init({
    clientUrl: databaseUrl,
    entities,
    migrations: { transactional: true, snapshot: false },
    pool: { min: 0, max: poolMax },
    allowGlobalContext: false,
    debug: false,
  });
  failedBeginThrows(orm.em.getConnection());
  return orm;
}

/** What `failedBeginThrows` needs of a knex transaction and of the connection that begins it. */
interface BegunTransaction {
  isCompleted(): boolean;
  executionPromise: Promise<unknown>;
}
interface Begins<O, T extends BegunTransaction> {
  begin(options?: O): Promise<T>;
}

/**
 * knex hands out a transaction whose BEGIN failed (the connection dropped: a database restart)
 * as if it had begun, already ended; its first statement then throws "Transaction query already
 * complete", which names no outage, and the caller got a 500 for a 503 (the database-outage fault
 * test). BEGIN's own error, which does name it, is the transaction's execution promise's: thrown
 * here instead, before any statement runs.
 */
export function failedBeginThrows<O, T extends BegunTransaction>(connection: Begins<O, T>): void {
  const begin = connection.begin.bind(connection);
  connection.begin = async (options) => {
    const trx = await begin(options);
    if (!trx.isCompleted()) return trx;
    await trx.executionPromise;
    throw new Error('The database transaction ended before it began.');
  };
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

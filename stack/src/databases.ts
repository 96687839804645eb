import pg from 'pg';
import { initLensOrm, migrateLens } from '@campaign/lens';
import { initSettlementOrm, migrateSettlement } from '@campaign/settlement';

function adminUrl(url: string): { server: string; database: string } {
  const parsed = new URL(url);
  const database = decodeURIComponent(parsed.pathname.slice(1));
  parsed.pathname = '/postgres';
  return { server: parsed.toString(), database };
}

async function withServer<T>(
  url: string,
  work: (client: pg.Client, database: string) => Promise<T>,
): Promise<T> {
  const { server, database } = adminUrl(url);
  const client = new pg.Client({ connectionString: server });
  await client.connect();
  try {
    return await work(client, database);
  } finally {
    await client.end();
  }
}

export async function ensureDatabase(url: string): Promise<boolean> {
  return withServer(url, async (client, database) => {
    const found = await client.query('select 1 from pg_database where datname = $1', [database]);
    if (found.rowCount) return false;
    await client.query(`create database ${client.escapeIdentifier(database)}`);
    return true;
  });
}

/** A session of another process on a database: who is using it. */
export interface DatabaseSession {
  database: string;
  pid: number;
  application: string;
  client: string | null;
}

/**
 * The sessions other processes hold on the database of `url` (issue 23 item 7): `db:reset` drops
 * it only when nobody is using it, since a running stack would see its data vanish mid-request.
 */
export async function sessionsOn(url: string): Promise<DatabaseSession[]> {
  return withServer(url, async (client, database) => {
    const found = await client.query<DatabaseSession>(
      `select datname as database, pid, coalesce(nullif(application_name, ''), 'unnamed') as application,
              client_addr::text as client
       from pg_stat_activity
       where datname = $1 and pid <> pg_backend_pid() and backend_type = 'client backend'
       order by pid`,
      [database],
    );
    return found.rows;
  });
}

export async function dropDatabase(url: string): Promise<void> {
  await withServer(url, async (client, database) => {
    await client.query(`drop database if exists ${client.escapeIdentifier(database)} with (force)`);
  });
}

/** Applies the checked-in migrations of both subgraphs. */
export async function migrateAll(urls: { lens: string; settlement: string }): Promise<void> {
  const lens = await initLensOrm(urls.lens, 2);
  try {
    await migrateLens(lens);
  } finally {
    await lens.close();
  }
  const settlement = await initSettlementOrm(urls.settlement, 2);
  try {
    await migrateSettlement(settlement);
  } finally {
    await settlement.close();
  }
}

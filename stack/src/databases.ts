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

import type { Sql } from '@campaign/stack';

/**
 * What "writes nothing" compares: for each table of a database, its row count and a digest of
 * all its rows. Rate-limit counters aside (an invalid request still counts toward its limit: their
 * table, and the window on lens's tenant row), and the settlement idempotency keys: a keyed request's refusal is stored so that a retry with the
 * key replays it (issue 23), which records an answer and changes nothing else.
 */
const SKIPPED = new Set(['rate_limit_window', 'mikro_orm_migrations', 'idempotency_key']);
/** Counters kept on a row of their own table: lens's tenant rate-limit window (issue 27). */
const SKIPPED_COLUMNS: Record<string, string[]> = {
  tenant: ['rate_window_start', 'rate_window_hits'],
};

/** A row as text, less its skipped columns. */
function rowText(table: string): string {
  const skipped = SKIPPED_COLUMNS[table];
  return skipped ? `(to_jsonb(t) - ${skipped.map((c) => `'${c}'`).join(' - ')})::text` : 't::text';
}

export async function snapshotQuery(sql: Sql): Promise<string> {
  const tables = await sql.query<{ name: string }>(
    `select table_name as name from information_schema.tables
      where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name`,
  );
  const parts = tables
    .map((t) => t.name)
    .filter((name) => !SKIPPED.has(name))
    .map(
      (name) =>
        `select '${name}' as name, count(*)::text as rows,
                md5(coalesce(string_agg(${rowText(name)}, '|' order by ${rowText(name)}), ''))
                  as digest from "${name}" t`,
    );
  return parts.join(' union all ');
}

export type Snapshot = Record<string, string>;

export async function snapshot(sql: Sql, query: string): Promise<Snapshot> {
  const rows = await sql.query<{ name: string; rows: string; digest: string }>(query);
  return Object.fromEntries(rows.map((r) => [r.name, `${r.rows} rows ${r.digest}`]));
}

/** The tables whose rows differ between two snapshots. */
export function changed(before: Snapshot, after: Snapshot): string[] {
  return Object.keys(after).filter((name) => before[name] !== after[name]);
}

import type { EntityManager } from '@mikro-orm/postgresql';

/** `CAM<n>`, `SET<n>`, `QUO<n>`: a prefix and the next value of a database sequence (S7). */
export async function nextPrefixedId(
  em: EntityManager,
  prefix: string,
  sequence: string,
): Promise<string> {
  const [row] = await em.execute<{ id: string }[]>(`select ? || nextval(?::regclass) as id`, [
    prefix,
    sequence,
  ]);
  return row!.id;
}

/** `count` ids of one prefix and sequence, in order (one statement for a quotation's campaigns). */
export async function nextPrefixedIds(
  em: EntityManager,
  prefix: string,
  sequence: string,
  count: number,
): Promise<string[]> {
  const rows = await em.execute<{ id: string }[]>(
    `select ? || nextval(?::regclass) as id from generate_series(1, ?::int) as n order by n`,
    [prefix, sequence, count],
  );
  return rows.map((row) => row.id);
}

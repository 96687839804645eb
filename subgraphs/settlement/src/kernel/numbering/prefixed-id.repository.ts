import type { EntityManager } from '@mikro-orm/postgresql';
import type { PrefixedId } from '../ids.js';

/** `CAM<n>`, `SET<n>`, `QUO<n>`: the id's prefix and the next value of its sequence (S7). */
export async function nextPrefixedId(em: EntityManager, id: PrefixedId): Promise<string> {
  const [row] = await em.execute<{ id: string }[]>(`select ? || nextval(?::regclass) as id`, [
    id.prefix,
    id.sequence,
  ]);
  return row!.id;
}

/** `count` ids of one kind, in order (one statement for a quotation's campaigns). */
export async function nextPrefixedIds(
  em: EntityManager,
  id: PrefixedId,
  count: number,
): Promise<string[]> {
  const rows = await em.execute<{ id: string }[]>(
    `select ? || nextval(?::regclass) as id from generate_series(1, ?::int) as n order by n`,
    [id.prefix, id.sequence, count],
  );
  return rows.map((row) => row.id);
}

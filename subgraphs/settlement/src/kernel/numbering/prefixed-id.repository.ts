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

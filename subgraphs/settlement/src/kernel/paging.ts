import type { EntityRepository, ObjectQuery, QueryOrderMap } from '@mikro-orm/postgresql';
import { z } from 'zod';
import { PlatformError } from '@campaign/schema';
import { SERIAL_ID } from './ids.js';
import { parseInput } from './input-rules.js';

/**
 * Paging shared by every list of the settlement subgraph (settlements, agencies, quotations):
 * `limit` 1-100 (default 20) and an opaque keyset cursor, `{items, nextCursor, total}` back
 * (DESIGN.md section 5). A cursor is base64url of `<tag>:<position>`; the tag names the list, so
 * a cursor of one list is refused by another instead of silently paging it wrongly.
 */
export const DEFAULT_LIMIT = 20;
export const MAX_LIMIT = 100;

export interface Page<T> {
  items: T[];
  nextCursor: string | null;
  total: number;
}

const limitMessage = `must be a whole number from 1 to ${MAX_LIMIT}.`;
export const limitRules = z.object({
  limit: z
    .int({ error: limitMessage })
    .min(1, { error: limitMessage })
    .max(MAX_LIMIT, { error: limitMessage })
    .nullish()
    .transform((limit) => limit ?? DEFAULT_LIMIT),
});

/** The page size: 400 naming `limit` outside 1-100. */
export function parseLimit(limit: number | null | undefined): number {
  return parseInput(limitRules, { limit }).limit;
}

export function encodePosition(tag: string, position: string): string {
  return Buffer.from(`${tag}:${position}`, 'utf8').toString('base64url');
}

/** The position (a positive whole number) a cursor of list `tag` carries; null for none. */
export function decodePosition(tag: string, cursor: string | null | undefined): string | null {
  if (cursor === null || cursor === undefined || cursor === '') return null;
  const text = /^[A-Za-z0-9_-]{1,64}$/.test(cursor)
    ? Buffer.from(cursor, 'base64url').toString('utf8')
    : '';
  const prefix = `${tag}:`;
  const position = text.startsWith(prefix) ? text.slice(prefix.length) : '';
  if (!SERIAL_ID.test(position))
    throw new PlatformError('INVALID_CURSOR', 'The cursor is not one this API issued.');
  return position;
}

/** Every one of `conditions` (an empty list matches every row). */
export const allOf = <T extends object>(conditions: ObjectQuery<T>[]): ObjectQuery<T> =>
  conditions.length ? ({ $and: conditions } as ObjectQuery<T>) : {};

/**
 * One keyset page of `repo`'s rows matching `where`, in `key` order (`asc`: the rows after
 * position `after`; `desc`: before it), with one row more than `pageSize` when more follow, and
 * the number of all the rows that match.
 */
export async function keysetPage<T extends object>(
  repo: EntityRepository<T>,
  where: ObjectQuery<T>,
  key: keyof T & string,
  order: 'asc' | 'desc',
  after: string | null,
  pageSize: number,
): Promise<{ rows: T[]; total: number }> {
  const total = await repo.count(where);
  const past = { [key]: { [order === 'asc' ? '$gt' : '$lt']: after } } as ObjectQuery<T>;
  const rows = await repo.find(
    after === null ? where : ({ $and: [where, past] } as ObjectQuery<T>),
    {
      orderBy: { [key]: order } as QueryOrderMap<T>,
      limit: pageSize + 1,
    },
  );
  return { rows, total };
}

/**
 * One page of list `tag`: `limit` read (400), `cursor` decoded (400), then `read` from the
 * position after which the page starts; the next cursor carries the last item's `position`.
 */
export async function positionPage<T>(
  tag: string,
  cursor: string | null | undefined,
  limit: number | null | undefined,
  read: (after: string | null, pageSize: number) => Promise<{ rows: T[]; total: number }>,
  position: (last: T) => string,
): Promise<Page<T>> {
  const pageSize = parseLimit(limit);
  const after = decodePosition(tag, cursor);
  const { rows, total } = await read(after, pageSize);
  return pageOf(rows, pageSize, total, (last) => encodePosition(tag, position(last)));
}

/** `{items, nextCursor, total}` from a page read with one row more than asked for. */
export function pageOf<T>(
  rows: T[],
  pageSize: number,
  total: number,
  cursorOf: (last: T) => string,
): Page<T> {
  const items = rows.slice(0, pageSize);
  const last = items.at(-1);
  return { items, nextCursor: rows.length > pageSize && last ? cursorOf(last) : null, total };
}

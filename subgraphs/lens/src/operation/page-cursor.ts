import { PlatformError } from '@campaign/schema';

export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;

export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

/** `first` of a list query: 1 to 100, default 20; anything else is a 400. */
export function pageSize(first: number | null | undefined): number {
  const size = first ?? DEFAULT_PAGE_SIZE;
  if (!Number.isInteger(size) || size < 1 || size > MAX_PAGE_SIZE) {
    throw new PlatformError('INVALID_REQUEST', `first must be 1 to ${MAX_PAGE_SIZE}.`);
  }
  return size;
}

/**
 * Opaque keyset cursors of the console lists (operations, ledger): the sort key of the last row
 * shown, base64url JSON. They carry no secret: the query is scoped to the caller anyway.
 */
export function encodeCursor(key: readonly string[]): string {
  return Buffer.from(JSON.stringify(key)).toString('base64url');
}

export function decodeCursor(cursor: string | null | undefined, length: number): string[] | null {
  if (cursor === null || cursor === undefined) return null;
  try {
    const key = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown;
    if (
      Array.isArray(key) &&
      key.length === length &&
      key.every((part) => typeof part === 'string' && part.length <= 100)
    ) {
      return key as string[];
    }
  } catch {
    // falls through to the 400 below
  }
  throw new PlatformError('INVALID_CURSOR', 'after: not a cursor this list returned.');
}

/** Cuts a page of `size` from `rows` fetched with limit size + 1. */
export function pageOf<R, T>(
  rows: R[],
  size: number,
  map: (row: R) => T,
  keyOf: (row: R) => readonly string[],
): Page<T> {
  const shown = rows.slice(0, size);
  const last = shown.at(-1);
  return {
    items: shown.map(map),
    nextCursor: rows.length > size && last !== undefined ? encodeCursor(keyOf(last)) : null,
  };
}

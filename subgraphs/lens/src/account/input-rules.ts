import { z } from 'zod';
import { MAX_CURSOR_LENGTH } from './cursor.js';

/**
 * The field rules of lens spec section 8, shared by the operations' zod schemas. Lengths count
 * characters (Unicode code points), as JSON Schema's maxLength does, so the OpenAPI document
 * (REST) and these rules (GraphQL) agree. An optional field sent as null counts as absent
 * (GraphQL clients send null for "not given").
 */

export const characterCount = (s: string): number => [...s].length;

/** A string of `min` to `max` characters. */
export function chars(min: number, max: number) {
  return z.string().refine(
    (s) => {
      const n = characterCount(s);
      return n >= min && n <= max;
    },
    min === 0 ? `must be at most ${max} characters` : `must be ${min} to ${max} characters`,
  );
}

/** A search text: 1 to `max` characters, at least one of them not a space. */
export function searchText(max: number) {
  return chars(1, max).refine((s) => /\S/.test(s), 'must contain a non-space character');
}

/** An optional page size from 1 to `max`. */
export function pageSize(max: number) {
  const message = `must be an integer from 1 to ${max}`;
  return z.int({ error: message }).min(1, { error: message }).max(max, { error: message });
}

/** The cursor input: a nextCursor this API returned (string, at most 16384 characters) or null. */
export const cursorText = chars(0, MAX_CURSOR_LENGTH);

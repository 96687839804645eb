import { describe, expect, it } from 'vitest';
import { decodeCursor, encodeCursor, pageOf, pageSize } from './page-cursor.js';

describe('console list paging', () => {
  it('first is 1-100, default 20', () => {
    expect(pageSize(undefined)).toBe(20);
    expect(pageSize(100)).toBe(100);
    for (const bad of [0, 101, 1.5, -1]) expect(() => pageSize(bad)).toThrow(/first/);
  });

  it('cursors round-trip; anything else is INVALID_CURSOR', () => {
    expect(decodeCursor(encodeCursor(['a', 'b']), 2)).toEqual(['a', 'b']);
    expect(decodeCursor(null, 2)).toBeNull();
    for (const bad of ['nope', encodeCursor(['a']), encodeCursor(['a', 'b']).slice(1)]) {
      expect(() => decodeCursor(bad, 2)).toThrow(
        expect.objectContaining({ code: 'INVALID_CURSOR' }),
      );
    }
  });

  it('a page has a next cursor only when a row beyond it was fetched', () => {
    const rows = [1, 2, 3];
    expect(pageOf(rows, 2, String, (r) => [String(r)])).toEqual({
      items: ['1', '2'],
      nextCursor: encodeCursor(['2']),
    });
    expect(pageOf(rows, 3, String, (r) => [String(r)]).nextCursor).toBeNull();
  });
});

import { describe, expect, it } from 'vitest';
import { decodePosition, encodePosition, pageOf, parseLimit } from './paging.js';

describe('paging', () => {
  it('limit: default 20, 1 to 100', () => {
    expect(parseLimit(undefined)).toBe(20);
    expect(parseLimit(null)).toBe(20);
    expect(parseLimit(1)).toBe(1);
    expect(parseLimit(100)).toBe(100);
    for (const bad of [0, 101, 1.5])
      expect(() => parseLimit(bad)).toThrow('limit must be a whole number from 1 to 100.');
  });

  it("a cursor is opaque and bound to its list: another list's cursor is INVALID_CURSOR", () => {
    const cursor = encodePosition('q1', '42');
    expect(decodePosition('q1', cursor)).toBe('42');
    expect(decodePosition('q1', null)).toBeNull();
    expect(decodePosition('q1', '')).toBeNull();
    for (const bad of [encodePosition('a1', '42'), encodePosition('q1', '0'), 'x'.repeat(65), '$$'])
      expect(() => decodePosition('q1', bad)).toThrow(
        expect.objectContaining({ code: 'INVALID_CURSOR' }),
      );
  });

  it('a page read one row long has a next cursor; a short one has none', () => {
    expect(pageOf([1, 2, 3], 2, 9, (last) => `after-${last}`)).toEqual({
      items: [1, 2],
      nextCursor: 'after-2',
      total: 9,
    });
    expect(pageOf([1, 2], 2, 2, String)).toEqual({ items: [1, 2], nextCursor: null, total: 2 });
  });
});

import 'reflect-metadata';
import { describe, expect, it } from 'vitest';
import { PlatformError } from '@campaign/schema';
import { createLensOperations, operationsByName } from './lens-operations.js';

const operations = createLensOperations({ cursorSecret: 'a-secret-of-sixteen-or-more' });
const ref = { handle: 'minji.daily' };

/** Inputs as clients send them, with what the definition makes of them. */
const CASES: [keyof typeof operations, unknown, unknown, number][] = [
  ['profile', { accountRef: ref }, { accountRef: ref, detail: 'standard' }, 1],
  ['posts', { accountRef: ref }, { accountRef: ref, cursor: null, pageSize: 12 }, 13],
  ['reels', { accountRef: ref, pageSize: 3 }, { accountRef: ref, cursor: null, pageSize: 3 }, 4],
  ['taggedPosts', { accountRef: ref }, { accountRef: ref, cursor: null, pageSize: 12 }, 13],
  [
    'followers',
    { accountRef: ref },
    { accountRef: ref, cursor: null, pageSize: 50, search: null },
    51,
  ],
  [
    'following',
    { accountRef: ref, search: 'ab' },
    { accountRef: ref, cursor: null, pageSize: null, search: 'ab' },
    51,
  ],
  ['guides', { accountRef: ref }, { accountRef: ref, cursor: null }, 13],
  ['stories', { accountRefs: [ref, ref] }, { accountRefs: [ref, ref] }, 3],
  ['highlights', { accountRef: ref }, { accountRef: ref }, 101],
  ['broadcast', { accountRef: ref }, { accountRef: ref }, 1],
  ['related', { accountRef: ref }, { accountRef: ref }, 51],
  ['about', { accountRef: ref }, { accountRef: ref }, 1],
  ['search', { search: 'minji' }, { search: 'minji' }, 51],
];

describe('the thirteen lens operation definitions', () => {
  it('are all named after lens spec section 4, once each', () => {
    expect([...operationsByName(operations).keys()].sort()).toEqual(
      [
        'accounts.about',
        'accounts.broadcast',
        'accounts.followers',
        'accounts.following',
        'accounts.guides',
        'accounts.highlights',
        'accounts.posts',
        'accounts.profile',
        'accounts.reels',
        'accounts.related',
        'accounts.search',
        'accounts.stories',
        'accounts.taggedPosts',
      ].sort(),
    );
  });

  it.each(CASES)(
    '%s: defaults applied, reservation = base + perItem × bound',
    (name, raw, parsed, reserved) => {
      const definition = operations[name] as unknown as {
        parseInput(raw: unknown): unknown;
        maxItems(input: unknown): number;
        price: { base: number; perItem: number };
      };
      const input = definition.parseInput(raw);
      expect(input).toEqual(parsed);
      expect(definition.price.base + definition.price.perItem * definition.maxItems(input)).toBe(
        reserved,
      );
      // Stored inputs are read again by the engine's workers: parsing is idempotent.
      expect(definition.parseInput(JSON.parse(JSON.stringify(input)))).toEqual(input);
    },
  );

  it('refuses search with paging on followers and following (L11)', () => {
    for (const extra of [{ pageSize: 10 }, { cursor: 'c1.a.b' }]) {
      expect(() =>
        operations.followers.parseInput({ accountRef: ref, search: 'x', ...extra }),
      ).toThrow(PlatformError);
    }
  });
});

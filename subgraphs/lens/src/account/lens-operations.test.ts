import { describe, expect, it } from 'vitest';
import { PlatformError } from '@campaign/schema';
import { lensOperationList } from '@campaign/schema';
import { createLensOperations } from './lens-operations.js';

const operations = createLensOperations({ cursorSecret: 'a-secret-of-sixteen-or-more' });
const ref = { handle: 'minji.daily' };

/** Inputs as clients send them, with what the definition makes of them and reserves. */
const CASES: [string, unknown, unknown, number][] = [
  ['accounts.profile', { accountRef: ref }, { accountRef: ref, detail: 'standard' }, 1],
  ['accounts.posts', { accountRef: ref }, { accountRef: ref, cursor: null, pageSize: 12 }, 13],
  [
    'accounts.reels',
    { accountRef: ref, pageSize: 3 },
    { accountRef: ref, cursor: null, pageSize: 3 },
    4,
  ],
  [
    'accounts.taggedPosts',
    { accountRef: ref },
    { accountRef: ref, cursor: null, pageSize: 12 },
    13,
  ],
  [
    'accounts.followers',
    { accountRef: ref },
    { accountRef: ref, cursor: null, pageSize: 50, search: null },
    51,
  ],
  [
    'accounts.following',
    { accountRef: ref, search: 'ab' },
    { accountRef: ref, cursor: null, pageSize: null, search: 'ab' },
    51,
  ],
  ['accounts.guides', { accountRef: ref }, { accountRef: ref, cursor: null }, 13],
  ['accounts.stories', { accountRefs: [ref, ref] }, { accountRefs: [ref, ref] }, 3],
  ['accounts.highlights', { accountRef: ref }, { accountRef: ref }, 101],
  ['accounts.broadcast', { accountRef: ref }, { accountRef: ref }, 1],
  ['accounts.related', { accountRef: ref }, { accountRef: ref }, 51],
  ['accounts.about', { accountRef: ref }, { accountRef: ref }, 1],
  ['accounts.search', { search: 'minji' }, { search: 'minji' }, 51],
];

describe('the thirteen lens operation definitions', () => {
  it('implement every operation of the contract (lens spec section 4), once each', () => {
    expect([...operations.keys()]).toEqual(lensOperationList.map((c) => c.name));
    for (const [name, definition] of operations) expect(definition.contract.name).toBe(name);
  });

  it.each(CASES)(
    '%s: defaults applied, reservation = base + perItem × bound',
    (name, raw, parsed, reserved) => {
      const definition = operations.get(name)!;
      const input = definition.parseInput(raw);
      expect(input).toEqual(parsed);
      expect(definition.price.base + definition.price.perItem * definition.maxItems(input)).toBe(
        reserved,
      );
      // Stored inputs are read again by the engine's workers: parsing is idempotent.
      expect(definition.parseInput(JSON.parse(JSON.stringify(input)))).toEqual(input);
    },
  );

  it('GraphQL null counts as absent; REST rules otherwise (a 400 names the field)', () => {
    const followers = operations.get('accounts.followers')!;
    expect(
      followers.parseInput({ accountRef: { handle: 'a', accountId: null }, pageSize: null }),
    ).toEqual({ accountRef: { handle: 'a' }, cursor: null, pageSize: 50, search: null });
    expect(() => followers.parseInput({ accountRef: ref, pageSize: 51 })).toThrow(
      /^pageSize: must be an integer from 1 to 50$/,
    );
  });

  it('refuses search with paging on followers and following (L11)', () => {
    for (const extra of [{ pageSize: 10 }, { cursor: 'c1.a.b' }]) {
      expect(() =>
        operations
          .get('accounts.followers')!
          .parseInput({ accountRef: ref, search: 'x', ...extra }),
      ).toThrow(PlatformError);
    }
  });
});

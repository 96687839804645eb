import { describe, expect, it } from 'vitest';
import type { OperationDefinition } from './operation-definition.js';
import { chargeAt, PriceBook } from './prices.js';

const list = {
  name: 'accounts.posts',
  price: { base: 1, perItem: 1 },
  maxItems: (input: { pageSize: number }) => input.pageSize,
} as unknown as OperationDefinition<{ pageSize: number }>;

describe('prices (DESIGN.md L3)', () => {
  it('reserves base + perItem × the upper bound; charges what was delivered, capped', () => {
    const prices = new PriceBook();
    expect(prices.reservation(list, { pageSize: 12 })).toBe(13);
    expect(chargeAt({ base: 1, perItem: 1 }, 5, 13)).toBe(6);
    expect(chargeAt({ base: 1, perItem: 1 }, 40, 13)).toBe(13);
  });

  it('LENS_PRICES overrides base and perItem separately', () => {
    const prices = PriceBook.checked({ 'accounts.posts': { perItem: 2 } }, ['accounts.posts']);
    expect(prices.of(list as unknown as OperationDefinition<never>)).toEqual({
      base: 1,
      perItem: 2,
    });
    expect(prices.reservation(list, { pageSize: 12 })).toBe(25);
  });

  it('refuses an override of an operation that does not exist', () => {
    expect(() => PriceBook.checked({ 'accounts.nope': { base: 1 } }, ['accounts.posts'])).toThrow(
      /accounts\.nope/,
    );
  });
});

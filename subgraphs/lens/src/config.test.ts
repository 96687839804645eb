import { describe, expect, it } from 'vitest';
import { loadLensConfig } from './config.js';

const base = {
  LENS_DATABASE_URL: 'postgres://u:p@127.0.0.1:5433/lens',
  LENS_UPSTREAM_URL: 'http://127.0.0.1:4100',
};

describe('lens engine configuration', () => {
  it('defaults: nothing disabled, default prices, a 2 s budget, a 30 s lease', () => {
    const config = loadLensConfig(base);
    expect(config.LENS_DISABLED_OPERATIONS).toEqual([]);
    expect(config.LENS_PRICES).toEqual({});
    expect(config.LENS_SYNC_BUDGET_MS).toBe(2000);
    expect(config.LENS_LEASE_MS).toBe(30_000);
  });

  it('reads LENS_DISABLED_OPERATIONS and LENS_PRICES', () => {
    const config = loadLensConfig({
      ...base,
      LENS_DISABLED_OPERATIONS: 'accounts.guides, accounts.stories',
      LENS_PRICES: '{"accounts.posts": {"base": 2, "perItem": 1}}',
    });
    expect(config.LENS_DISABLED_OPERATIONS).toEqual(['accounts.guides', 'accounts.stories']);
    expect(config.LENS_PRICES).toEqual({ 'accounts.posts': { base: 2, perItem: 1 } });
  });

  it('names every bad variable', () => {
    expect(() =>
      loadLensConfig({ ...base, LENS_PRICES: '{"accounts.posts": {"base": -1}}' }),
    ).toThrow(/LENS_PRICES/);
    expect(() => loadLensConfig({ ...base, LENS_PRICES: 'not json' })).toThrow(/must be JSON/);
  });
});

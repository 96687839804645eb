import { describe, expect, it } from 'vitest';
import {
  decodeId,
  encodeHandle,
  handleOfId,
  idOfHandle,
  normalizeHandle,
  scenarioOf,
} from './ids.js';

describe('simulated account ids', () => {
  it('round-trips handles through ids, scenario prefixes included', () => {
    for (const handle of ['a', 'mina.kim', 'private_mina', 'verified_brand', 'x_'.repeat(9)]) {
      const id = idOfHandle(handle);
      expect(id).toMatch(/^[1-9]\d{0,29}$/);
      expect(handleOfId(id)).toBe(handle);
    }
  });

  it('is a bijection: every id names exactly one handle', () => {
    for (const n of [1n, 38n, 39n, 1234567n, 10n ** 29n]) expect(encodeHandle(decodeId(n))).toBe(n);
  });

  it('remembers handles too long for 30 digits (in memory only)', () => {
    const long = 'a.very.long.handle.of.thirty_c';
    const id = idOfHandle(long);
    expect(id).toHaveLength(30);
    expect(handleOfId(id)).toBe(long);
  });

  it('normalises handles and refuses what is not one', () => {
    expect(normalizeHandle(' Mina.Kim ')).toBe('mina.kim');
    expect(normalizeHandle('no spaces')).toBeNull();
    expect(handleOfId('0123')).toBeNull();
  });

  it('reads stacked scenario prefixes', () => {
    expect(scenarioOf('slow_private_mina')).toMatchObject({
      slow: true,
      private: true,
      flaky: false,
    });
    expect(scenarioOf('mina_private_')).toMatchObject({ private: false });
  });
});

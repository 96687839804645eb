import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MONEY_TEXT, parseMoney } from './money.js';
import { parseRate, RATE_TEXT } from './rate.js';

/**
 * The patterns the published schemas state for amounts and rates (issue 21) promise no more than
 * the parsers take: every text a pattern matches is parsed, so a request valid by the document
 * is never refused for its shape.
 */
const digits = (max: number) =>
  fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: 1, maxLength: max });
const decimalText = fc
  .tuple(digits(16), fc.option(digits(3), { nil: undefined }))
  .map(([whole, fraction]) => (fraction === undefined ? whole : `${whole}.${fraction}`));

describe.each([
  ['MONEY_TEXT', MONEY_TEXT, (text: string) => parseMoney(text)],
  ['RATE_TEXT', RATE_TEXT, (text: string) => parseRate(text)],
])('%s', (_, pattern, parse) => {
  it('every text it matches is parsed', () => {
    fc.assert(
      fc.property(decimalText, (text) => {
        if (pattern.test(text)) expect(() => parse(text)).not.toThrow();
      }),
      { numRuns: 2000 },
    );
  });

  it('matches the ordinary values and not the refused ones', () => {
    expect(['0', '1', '12.5', '99.99'].every((t) => pattern.test(t))).toBe(true);
    expect(['-1', '1e3', '1.005', ' 1', ''].some((t) => pattern.test(t))).toBe(false);
  });
});

it('the money pattern reaches the largest amount, the rate pattern 100', () => {
  expect(MONEY_TEXT.test('9999999999999.99')).toBe(true);
  expect(MONEY_TEXT.test('10000000000000')).toBe(false);
  expect(RATE_TEXT.test('100.00')).toBe(true);
  expect(RATE_TEXT.test('100.01')).toBe(false);
});

import { Decimal } from 'decimal.js';
import type { PlainDecimalFailure } from './plain-decimal.js';

/**
 * What every plain-decimal reader (amounts and rates alike) refuses before its own bounds are
 * looked at, with the reason: one list, so that money and rate tests check the same rule.
 */
export const NOT_PLAIN_DECIMALS: readonly (readonly [
  string | number | Decimal,
  PlainDecimalFailure,
])[] = [
  ['abc', 'not-a-number'],
  ['', 'not-a-number'],
  [' 1', 'not-a-number'],
  ['1e3', 'not-a-number'],
  ['+1', 'not-a-number'],
  ['0x10', 'not-a-number'],
  ['1.', 'not-a-number'],
  ['.5', 'not-a-number'],
  ['20%', 'not-a-number'],
  ['Infinity', 'not-a-number'],
  ['NaN', 'not-a-number'],
  [Number.NaN, 'not-finite'],
  [Number.POSITIVE_INFINITY, 'not-finite'],
  [new Decimal(Number.NaN), 'not-finite'],
  [new Decimal('-Infinity'), 'not-finite'],
];

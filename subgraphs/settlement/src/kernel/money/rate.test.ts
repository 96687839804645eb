import { Decimal } from 'decimal.js';
import { describe, expect, it } from 'vitest';

import { InvalidRateError } from './money-errors.js';
import { NOT_PLAIN_DECIMALS } from './plain-decimal.fixtures.js';
import { addPercentagePoints, formatRate, parseRate } from './rate.js';

describe('parseRate', () => {
  it.each([
    ['0', '0.00'],
    ['-0', '0.00'],
    ['20', '20.00'],
    ['15.5', '15.50'],
    ['12.25', '12.25'],
    ['3.3', '3.30'],
    ['100', '100.00'],
    ['100.00', '100.00'],
    [7.25, '7.25'],
    [new Decimal('0.01'), '0.01'],
  ] as const)('accepts %s', (input, printed) => {
    expect(formatRate(parseRate(input))).toBe(printed);
  });

  it.each([
    ['-0.01', 'out-of-range'],
    ['100.01', 'out-of-range'],
    ['101', 'out-of-range'],
    [-1, 'out-of-range'],
    ['12.345', 'too-many-decimals'],
    [0.001, 'too-many-decimals'],
    ['1e1', 'not-a-number'],
    ...NOT_PLAIN_DECIMALS,
  ] as const)('rejects %s as %s', (input, reason) => {
    expect(() => parseRate(input, 'commissionRate')).toThrow(InvalidRateError);
    expect(() => parseRate(input, 'commissionRate')).toThrow(
      expect.objectContaining({ code: 'INVALID_REQUEST', field: 'commissionRate', reason }),
    );
  });
});

describe('addPercentagePoints', () => {
  it('adds exactly whatever the global precision', () => {
    const saved = Decimal.precision;
    Decimal.set({ precision: 1 });
    try {
      expect(addPercentagePoints(new Decimal('12.25'), new Decimal(10)).toString()).toBe('22.25');
    } finally {
      Decimal.set({ precision: saved });
    }
  });
});

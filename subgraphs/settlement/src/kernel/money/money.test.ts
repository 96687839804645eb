import { Decimal } from 'decimal.js';
import { describe, expect, it } from 'vitest';

import { InvalidAmountError } from './money-errors.js';
import { NOT_PLAIN_DECIMALS } from './plain-decimal.fixtures.js';
import {
  MAX_MONEY,
  formatMoney,
  parseMoney,
  percentOf,
  roundHalfUpToWhole,
  subtractMoney,
  sumMoney,
} from './money.js';

describe('parseMoney', () => {
  it.each([
    ['1000000', '1000000.00'],
    ['0', '0.00'],
    ['-0', '0.00'],
    ['0.5', '0.50'],
    ['12.34', '12.34'],
    ['12.30', '12.30'],
    ['1.100', '1.10'],
    ['007', '7.00'],
    ['9999999999999.99', '9999999999999.99'],
  ])('accepts the string %s', (input, printed) => {
    expect(formatMoney(parseMoney(input))).toBe(printed);
  });

  it.each([
    [1500, '1500.00'],
    [12.5, '12.50'],
    [0.1, '0.10'],
    [-0, '0.00'],
    [9999999999999.99, '9999999999999.99'],
  ])('accepts the number %s', (input, printed) => {
    expect(formatMoney(parseMoney(input))).toBe(printed);
  });

  it('accepts a Decimal and returns a plain Decimal', () => {
    const parsed = parseMoney(new Decimal('42.42'));
    expect(parsed).toBeInstanceOf(Decimal);
    expect(parsed.toString()).toBe('42.42');
  });

  it.each([
    ...NOT_PLAIN_DECIMALS,
    ['1.234', 'too-many-decimals'],
    [0.1 + 0.2, 'too-many-decimals'],
    [new Decimal('0.001'), 'too-many-decimals'],
    ['-1', 'negative'],
    ['-0.01', 'negative'],
    [-5, 'negative'],
    ['10000000000000', 'too-large'],
    ['10000000000000.00', 'too-large'],
    [1e21, 'too-large'],
  ] as const)('rejects %s as %s', (input, reason) => {
    expect(() => parseMoney(input as string | number | Decimal, 'price')).toThrow(
      InvalidAmountError,
    );
    try {
      parseMoney(input as string | number | Decimal, 'price');
    } catch (error) {
      expect(error).toMatchObject({
        code: 'INVALID_REQUEST',
        field: 'price',
        reason,
        extensions: { code: 'INVALID_REQUEST', httpStatus: 400, field: 'price', reason },
      });
      expect((error as Error).message).toMatch(/^price /);
    }
  });

  it('rejects a value that is not a string, number or Decimal', () => {
    expect(() => parseMoney(null as unknown as string)).toThrow(InvalidAmountError);
    expect(() => parseMoney({} as unknown as string)).toThrow(InvalidAmountError);
  });

  it('names "amount" when no field is given', () => {
    expect(() => parseMoney('-1')).toThrow('amount must not be negative');
  });
});

describe('formatMoney', () => {
  it.each([
    ['1000000', '1000000.00'],
    ['0', '0.00'],
    ['1.5', '1.50'],
    ['1.005', '1.01'],
    ['1e20', '100000000000000000000.00'],
    ['-0.001', '0.00'],
    ['-2.5', '-2.50'],
  ])('%s prints as %s', (input, printed) => {
    expect(formatMoney(new Decimal(input))).toBe(printed);
  });

  it('prints MAX_MONEY exactly', () => {
    expect(formatMoney(MAX_MONEY)).toBe('9999999999999.99');
  });

  it('refuses non-finite values', () => {
    expect(() => formatMoney(new Decimal(Number.NaN))).toThrow(RangeError);
  });
});

describe('roundHalfUpToWhole', () => {
  it.each([
    ['100.5', '101'],
    ['100.49', '100'],
    ['100.4999999999', '100'],
    ['0.5', '1'],
    ['0.49', '0'],
    ['16.5', '17'],
    ['49.5', '50'],
    ['2', '2'],
    ['9999999999999.5', '10000000000000'],
    ['1999999999999.998', '2000000000000'],
  ])('%s becomes %s', (input, rounded) => {
    expect(roundHalfUpToWhole(new Decimal(input)).toString()).toBe(rounded);
  });

  it('ignores the global rounding mode', () => {
    const saved = Decimal.rounding;
    Decimal.set({ rounding: Decimal.ROUND_HALF_EVEN });
    try {
      expect(roundHalfUpToWhole(new Decimal('100.5')).toString()).toBe('101');
      expect(roundHalfUpToWhole(new Decimal('101.5')).toString()).toBe('102');
    } finally {
      Decimal.set({ rounding: saved });
    }
  });
});

describe('exact arithmetic', () => {
  it('percentOf does not round', () => {
    expect(percentOf(new Decimal('9999999999999.99'), new Decimal('33.33')).toString()).toBe(
      '3332999999999.996667',
    );
  });

  it('subtractMoney and sumMoney are exact at the numeric(15,2) limit', () => {
    const saved = Decimal.precision;
    Decimal.set({ precision: 3 });
    try {
      expect(subtractMoney(MAX_MONEY, new Decimal('0.01')).toString()).toBe('9999999999999.98');
      expect(sumMoney([MAX_MONEY, MAX_MONEY, new Decimal('0.02')]).toString()).toBe(
        '20000000000000',
      );
      expect(sumMoney([]).toString()).toBe('0');
    } finally {
      Decimal.set({ precision: saved });
    }
  });
});

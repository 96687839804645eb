import { describe, expect, it } from 'vitest';

import { InvalidBusinessNumberError } from './business-number-errors.js';
import {
  businessNumberCheckDigit,
  formatBusinessNumber,
  isValidBusinessNumber,
  normaliseBusinessNumber,
} from './business-number.js';

/**
 * Valid numbers, check digits worked by hand, e.g. 123-45-6789?:
 * 1*1 + 2*3 + 3*7 + 4*1 + 5*3 + 6*7 + 7*1 + 8*3 + 9*5 = 165, + floor(9*5/10) = 4 -> 169,
 * (10 - 9) % 10 = 1 -> 123-45-67891.
 */
const valid = [
  '123-45-67891',
  '220-81-62517',
  '124-81-00998',
  '120-81-47521',
  '104-81-36565',
  '105-87-12345',
  '000-00-00000',
  '999-99-99997',
];

describe('businessNumberCheckDigit', () => {
  it.each([
    ['123456789', 1],
    ['220816251', 7],
    ['124810099', 8],
    ['000000000', 0],
    ['999999999', 7],
    ['101010101', 3],
  ])('%s -> %i', (firstNine, digit) => {
    expect(businessNumberCheckDigit(firstNine)).toBe(digit);
  });

  it('rejects anything but nine digits', () => {
    expect(() => businessNumberCheckDigit('12345678')).toThrow(RangeError);
    expect(() => businessNumberCheckDigit('12345678a')).toThrow(RangeError);
  });
});

describe('normaliseBusinessNumber', () => {
  it.each(valid)('accepts %s with hyphens', (number) => {
    expect(normaliseBusinessNumber(number)).toBe(number.replaceAll('-', ''));
  });

  it.each(valid.map((n) => n.replaceAll('-', '')))('accepts %s without hyphens', (number) => {
    expect(normaliseBusinessNumber(number)).toBe(number);
  });

  it('ignores surrounding blanks', () => {
    expect(normaliseBusinessNumber('  220-81-62517\n')).toBe('2208162517');
  });

  it.each(valid.flatMap((n) => [-1, 1].map((delta) => [n, delta] as const)))(
    'rejects %s with its check digit changed by %i',
    (number, delta) => {
      const last = Number(number.at(-1));
      const wrong = `${number.slice(0, -1)}${(last + delta + 10) % 10}`;
      expect(() => normaliseBusinessNumber(wrong)).toThrow(InvalidBusinessNumberError);
      expect(() => normaliseBusinessNumber(wrong)).toThrow(
        expect.objectContaining({ code: 'INVALID_BUSINESS_NUMBER', reason: 'check-digit' }),
      );
    },
  );

  it('rejects 123-45-67890 (check digit should be 1)', () => {
    expect(() => normaliseBusinessNumber('123-45-67890')).toThrow(
      'The business registration number fails its check digit',
    );
  });

  it.each([
    ['', 'empty'],
    ['123456789', 'nine digits'],
    ['12345678911', 'eleven digits'],
    ['123-45-6789', 'short last group'],
    ['123-45-678911', 'long last group'],
    ['12a4567891', 'a letter'],
    ['ABC-DE-FGHIJ', 'letters'],
    ['12-345-67891', 'hyphens in the wrong places'],
    ['1234-5-67891', 'hyphens in the wrong places'],
    ['123-4567891', 'one hyphen'],
    ['12345-67891', 'one hyphen'],
    ['123--45-67891', 'doubled hyphen'],
    ['-123-45-67891', 'leading hyphen'],
    ['123-45-67891-', 'trailing hyphen'],
    ['123 45 67891', 'spaces as separators'],
    ['123.45.67891', 'dots as separators'],
    ['１２３４５６７８９１', 'full-width digits'],
    ['+1234567891', 'a sign'],
  ])('rejects %s (%s) as a format error', (input) => {
    expect(() => normaliseBusinessNumber(input)).toThrow(InvalidBusinessNumberError);
    try {
      normaliseBusinessNumber(input);
    } catch (error) {
      expect(error).toMatchObject({
        code: 'INVALID_BUSINESS_NUMBER',
        reason: 'format',
        extensions: { code: 'INVALID_BUSINESS_NUMBER', httpStatus: 400, reason: 'format' },
      });
      expect((error as Error).message).toMatch(/10 digits/);
    }
  });

  it('rejects a non-string at run time', () => {
    expect(() => normaliseBusinessNumber(1234567891 as unknown as string)).toThrow(
      InvalidBusinessNumberError,
    );
    expect(() => normaliseBusinessNumber(undefined as unknown as string)).toThrow(
      InvalidBusinessNumberError,
    );
  });
});

describe('isValidBusinessNumber and formatBusinessNumber', () => {
  it('answers without throwing', () => {
    expect(isValidBusinessNumber('220-81-62517')).toBe(true);
    expect(isValidBusinessNumber('220-81-62518')).toBe(false);
    expect(isValidBusinessNumber('nope')).toBe(false);
  });

  it('formats 10 digits as 3-2-5', () => {
    expect(formatBusinessNumber('2208162517')).toBe('220-81-62517');
    expect(() => formatBusinessNumber('220-81-62517')).toThrow(RangeError);
  });
});

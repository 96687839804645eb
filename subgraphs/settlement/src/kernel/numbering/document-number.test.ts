import { describe, expect, it } from 'vitest';

import { formatDocumentNumber, seoulYearMonth } from './document-number.js';

describe('seoulYearMonth', () => {
  it.each([
    ['2026-01-31T14:59:59.999Z', 2026, 1, 'last instant of January in Seoul'],
    ['2026-01-31T15:00:00.000Z', 2026, 2, 'first instant of February in Seoul'],
    ['2026-02-28T14:59:59Z', 2026, 2, 'end of February'],
    ['2026-02-28T15:00:00Z', 2026, 3, 'start of March'],
    ['2028-02-28T15:00:00Z', 2028, 2, 'leap day 29 February'],
    ['2028-02-29T15:00:00Z', 2028, 3, 'after the leap day'],
    ['2025-12-31T14:59:59Z', 2025, 12, 'last instant of the year in Seoul'],
    ['2025-12-31T15:00:00Z', 2026, 1, 'new year in Seoul while still 2025 in UTC'],
    ['2026-01-01T00:00:00Z', 2026, 1, 'UTC midnight is 09:00 in Seoul'],
    ['2026-06-15T12:00:00Z', 2026, 6, 'mid-month'],
    ['1999-12-31T15:00:00Z', 2000, 1, 'century boundary'],
  ])('%s is %i-%i (%s)', (iso, year, month) => {
    expect(seoulYearMonth(new Date(iso))).toEqual({ year, month });
  });

  it('ignores the process time zone', () => {
    // Same instant written with an offset: 23:30 on 31 January in New York is 1 February in Seoul.
    expect(seoulYearMonth(new Date('2026-01-31T23:30:00-05:00'))).toEqual({ year: 2026, month: 2 });
  });

  it('rejects an invalid date', () => {
    expect(() => seoulYearMonth(new Date('not a date'))).toThrow(RangeError);
  });
});

describe('formatDocumentNumber', () => {
  it.each([
    ['INV', 2026, 2, 1, 'INV-2026-02-0001'],
    ['PAY', 2026, 2, 1, 'PAY-2026-02-0001'],
    ['INV', 2026, 12, 42, 'INV-2026-12-0042'],
    ['PAY', 2025, 1, 999, 'PAY-2025-01-0999'],
    ['INV', 2026, 10, 9999, 'INV-2026-10-9999'],
    ['INV', 2026, 10, 10000, 'INV-2026-10-10000'],
    ['PAY', 2026, 3, 123456, 'PAY-2026-03-123456'],
  ] as const)('%s %i-%i #%i is %s', (prefix, year, month, sequence, expected) => {
    expect(formatDocumentNumber(prefix, { year, month }, sequence)).toBe(expected);
  });

  it('numbers by the Seoul month of the instant', () => {
    const at = new Date('2025-12-31T15:00:00Z');
    expect(formatDocumentNumber('INV', seoulYearMonth(at), 7)).toBe('INV-2026-01-0007');
    const before = new Date('2025-12-31T14:59:59Z');
    expect(formatDocumentNumber('PAY', seoulYearMonth(before), 7)).toBe('PAY-2025-12-0007');
  });

  it.each([
    [{ year: 2026, month: 0 }, 1],
    [{ year: 2026, month: 13 }, 1],
    [{ year: 2026, month: 1.5 }, 1],
    [{ year: 999, month: 1 }, 1],
    [{ year: 10000, month: 1 }, 1],
    [{ year: 2026, month: 1 }, 0],
    [{ year: 2026, month: 1 }, -1],
    [{ year: 2026, month: 1 }, 1.5],
    [{ year: 2026, month: 1 }, Number.NaN],
    [{ year: 2026, month: 1 }, Number.MAX_SAFE_INTEGER + 1],
  ])('rejects %o with sequence %s', (yearMonth, sequence) => {
    expect(() => formatDocumentNumber('INV', yearMonth, sequence)).toThrow(RangeError);
  });
});

import { seoulWallClock } from '../seoul-day.js';

/** Advertiser invoices are INV-..., partner payouts PAY-... (spec 2.5, 2.5a; DESIGN S7). */
export type DocumentPrefix = 'INV' | 'PAY';

export interface YearMonth {
  year: number;
  /** 1 to 12. */
  month: number;
}

const MIN_SEQUENCE_DIGITS = 4;

/** The calendar year and month of `date` in Asia/Seoul time. */
export function seoulYearMonth(date: Date): YearMonth {
  if (Number.isNaN(date.getTime())) throw new RangeError('seoulYearMonth: invalid date');
  const { year, month } = seoulWallClock(date);
  return { year, month };
}

/**
 * `PREFIX-YYYY-MM-NNNN`: the sequence is zero-padded to at least 4 digits and grows beyond
 * 9999 ("INV-2026-02-0001", "PAY-2026-02-10000").
 */
export function formatDocumentNumber(
  prefix: DocumentPrefix,
  yearMonth: YearMonth,
  sequence: number,
): string {
  const { year, month } = yearMonth;
  if (!Number.isInteger(year) || year < 1000 || year > 9999) {
    throw new RangeError(`formatDocumentNumber: year must have 4 digits, got ${year}`);
  }
  if (!Number.isInteger(month) || month < 1 || month > 12) {
    throw new RangeError(`formatDocumentNumber: month must be 1 to 12, got ${month}`);
  }
  if (!Number.isSafeInteger(sequence) || sequence < 1) {
    throw new RangeError(
      `formatDocumentNumber: sequence must be a positive integer, got ${sequence}`,
    );
  }
  const mm = String(month).padStart(2, '0');
  const nnnn = String(sequence).padStart(MIN_SEQUENCE_DIGITS, '0');
  return `${prefix}-${year}-${mm}-${nnnn}`;
}

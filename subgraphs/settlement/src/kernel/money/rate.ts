import { Decimal } from 'decimal.js';

import { InvalidRateError } from './money-errors.js';
import { Exact, plainDecimalReader } from './plain-decimal.js';

/** What a rate may arrive as: a decimal string from the wire, a Decimal, or a number. */
export type RateInput = string | number | Decimal;

export const MAX_RATE_PERCENT = new Decimal(100);

const RATE_DECIMALS = 2;
const readRate = plainDecimalReader(
  RATE_DECIMALS,
  { finite: 'a finite percentage', example: 'a percentage such as "20"' },
  InvalidRateError,
);

/**
 * The rate strings {@link parseRate} takes, as a pattern for published schemas: 0 to
 * MAX_RATE_PERCENT with at most RATE_DECIMALS decimals (stricter than the parser only in
 * refusing leading zeros beyond the digits MAX_RATE_PERCENT has).
 */
export const RATE_TEXT = new RegExp(
  `^(\\d{1,${MAX_RATE_PERCENT.toFixed().length - 1}}(\\.\\d{1,${RATE_DECIMALS}})?|${MAX_RATE_PERCENT.toFixed()}(\\.0{1,${RATE_DECIMALS}})?)$`,
);

/**
 * Parses a percentage rate stored as decimal(5,2): 0 to 100 inclusive, at most two decimals
 * ("15.5", "12.25"), as `plainDecimalReader` reads it. Throws {@link InvalidRateError}
 * (INVALID_REQUEST) naming `field`.
 */
export function parseRate(value: RateInput, field = 'rate'): Decimal {
  const d = readRate(value, field);
  if ((d.isNegative() && !d.isZero()) || d.greaterThan(MAX_RATE_PERCENT)) {
    throw new InvalidRateError(field, 'out-of-range', `${field} must be between 0 and 100`);
  }
  return d.isZero() ? new Decimal(0) : d;
}

/** Two decimals, as decimal(5,2) prints it: "3.30". */
export function formatRate(rate: Decimal): string {
  if (!rate.isFinite()) {
    throw new RangeError(`cannot format a non-finite rate: ${rate.toString()}`);
  }
  return rate.toFixed(RATE_DECIMALS, Decimal.ROUND_HALF_UP);
}

/** rate + points, exactly (for percentage-point surcharges). */
export function addPercentagePoints(rate: Decimal, points: Decimal): Decimal {
  return new Decimal(new Exact(rate).plus(points));
}

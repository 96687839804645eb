import { Decimal } from 'decimal.js';

import { InvalidRateError } from './money-errors.js';

/** What a rate may arrive as: a decimal string from the wire, a Decimal, or a number. */
export type RateInput = string | number | Decimal;

export const MAX_RATE_PERCENT = new Decimal(100);

const RATE_DECIMALS = 2;

/** Rate arithmetic runs in a private clone so the global Decimal precision never rounds it. */
const Exact = Decimal.clone({ precision: 64, rounding: Decimal.ROUND_HALF_UP });
const PLAIN_DECIMAL = /^-?\d+(\.\d+)?$/;

/**
 * Parses a percentage rate stored as decimal(5,2): 0 to 100 inclusive, at most two decimals
 * ("15.5", "12.25"). Throws {@link InvalidRateError} (INVALID_REQUEST) naming `field`.
 */
export function parseRate(value: RateInput, field = 'rate'): Decimal {
  let d: Decimal;
  if (Decimal.isDecimal(value)) d = new Decimal(value);
  else if (typeof value === 'number' && Number.isFinite(value)) d = new Decimal(value);
  else if (typeof value === 'string' && PLAIN_DECIMAL.test(value)) d = new Decimal(value);
  else if (typeof value === 'number') {
    throw new InvalidRateError(field, 'not-finite', `${field} must be a finite percentage`);
  } else {
    throw new InvalidRateError(field, 'not-a-number', `${field} must be a percentage such as "20"`);
  }
  if (!d.isFinite()) {
    throw new InvalidRateError(field, 'not-finite', `${field} must be a finite percentage`);
  }
  if (d.decimalPlaces() > RATE_DECIMALS) {
    throw new InvalidRateError(
      field,
      'too-many-decimals',
      `${field} must have at most ${RATE_DECIMALS} decimal places`,
    );
  }
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

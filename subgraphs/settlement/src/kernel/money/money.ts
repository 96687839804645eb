import { Decimal } from 'decimal.js';

import { InvalidAmountError } from './money-errors.js';
import { Exact, plainDecimalReader } from './plain-decimal.js';

/** What an amount may arrive as: a decimal string from the wire, a Decimal, or a number. */
export type AmountInput = string | number | Decimal;

/** The largest value numeric(15,2) holds. */
export const MAX_MONEY = new Decimal('9999999999999.99');

const MONEY_DECIMALS = 2;
const readAmount = plainDecimalReader(
  MONEY_DECIMALS,
  { finite: 'a finite amount', example: 'a decimal number such as "1500.00"' },
  InvalidAmountError,
);

/**
 * The amount strings {@link parseMoney} takes, as a pattern for published schemas: plain, not
 * negative, at most MONEY_DECIMALS decimals and as many whole digits as MAX_MONEY has (its
 * bound is the same: every such text is at most MAX_MONEY). Derived from the constants above.
 */
export const MONEY_TEXT = new RegExp(
  `^\\d{1,${MAX_MONEY.truncated().toFixed().length}}(\\.\\d{1,${MONEY_DECIMALS}})?$`,
);

/**
 * Parses a decimal string, a number or a Decimal into a non-negative amount that numeric(15,2)
 * holds (as `plainDecimalReader` reads it). Throws {@link InvalidAmountError} (INVALID_REQUEST)
 * naming `field`.
 */
export function parseMoney(value: AmountInput, field = 'amount'): Decimal {
  const d = readAmount(value, field);
  if (d.isNegative() && !d.isZero()) {
    throw new InvalidAmountError(field, 'negative', `${field} must not be negative`);
  }
  if (d.greaterThan(MAX_MONEY)) {
    throw new InvalidAmountError(
      field,
      'too-large',
      `${field} must not exceed ${formatMoney(MAX_MONEY)}`,
    );
  }
  return d.isZero() ? new Decimal(0) : d;
}

/** Two decimals, plain notation, as numeric(15,2) prints it: "1000000.00". */
export function formatMoney(amount: Decimal): string {
  if (!amount.isFinite()) {
    throw new RangeError(`cannot format a non-finite amount: ${amount.toString()}`);
  }
  const text = amount.toFixed(MONEY_DECIMALS, Decimal.ROUND_HALF_UP);
  return text.startsWith('-') && /^-0\.0+$/.test(text) ? text.slice(1) : text;
}

/** Rounds to a whole unit, halves away from zero (for amounts: halves round up). */
export function roundHalfUpToWhole(amount: Decimal): Decimal {
  return amount.toDecimalPlaces(0, Decimal.ROUND_HALF_UP);
}

/** amount x percent / 100, exactly (not rounded). */
export function percentOf(amount: Decimal, percent: Decimal): Decimal {
  return new Decimal(new Exact(amount).times(percent).dividedBy(100));
}

/** minuend - subtrahend, exactly. */
export function subtractMoney(minuend: Decimal, subtrahend: Decimal): Decimal {
  return new Decimal(new Exact(minuend).minus(subtrahend));
}

/** The exact sum of the amounts; 0 for none. */
export function sumMoney(amounts: readonly Decimal[]): Decimal {
  let total = new Exact(0);
  for (const amount of amounts) total = total.plus(amount);
  return new Decimal(total);
}

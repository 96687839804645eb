import { Decimal } from 'decimal.js';

/**
 * Amount and rate arithmetic runs in this private clone. 64 significant digits is far more than
 * any sum, difference or product of numeric(15,2) amounts and decimal(5,2) rates needs, so
 * nothing is rounded except where a rounding helper says so, whatever the global Decimal settings
 * are. Results are handed back as plain `Decimal` values.
 */
export const Exact = Decimal.clone({ precision: 64, rounding: Decimal.ROUND_HALF_UP });

const PLAIN_DECIMAL = /^-?\d+(\.\d+)?$/;

/** Why a value is not a decimal with the places a column holds. */
export type PlainDecimalFailure = 'not-a-number' | 'not-finite' | 'too-many-decimals';

/**
 * A reader of decimal strings, numbers and Decimals as finite Decimals with at most `places`
 * decimals. Strings must be plain decimals ("1500", "1500.5"): no exponent, sign "+", blanks or
 * hex. A refusal is an `Invalid` error naming the field and saying what it must be (`finite`:
 * "a finite amount", `example`: 'a decimal number such as "1500.00"').
 */
export function plainDecimalReader(
  places: number,
  words: { finite: string; example: string },
  Invalid: new (field: string, reason: PlainDecimalFailure, message: string) => Error,
): (value: string | number | Decimal, field: string) => Decimal {
  return (value, field) => {
    const fail = (reason: PlainDecimalFailure, must: string) =>
      new Invalid(field, reason, `${field} must ${must}`);
    let d: Decimal;
    if (Decimal.isDecimal(value)) d = new Decimal(value);
    else if (typeof value === 'number' && Number.isFinite(value)) d = new Decimal(value);
    else if (typeof value === 'string' && PLAIN_DECIMAL.test(value)) d = new Decimal(value);
    else if (typeof value === 'number') throw fail('not-finite', `be ${words.finite}`);
    else throw fail('not-a-number', `be ${words.example}`);
    if (!d.isFinite()) throw fail('not-finite', `be ${words.finite}`);
    if (d.decimalPlaces() > places) {
      throw fail('too-many-decimals', `have at most ${places} decimal places`);
    }
    return d;
  };
}

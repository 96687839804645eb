import { InvalidBusinessNumberError } from './business-number-errors.js';

/** Weights of the first nine digits of a business registration number (사업자등록번호). */
const CHECK_WEIGHTS = [1, 3, 7, 1, 3, 7, 1, 3, 5] as const;

/** 10 digits, or 3-2-5 digits joined by hyphens; blanks around them are ignored. */
export const BUSINESS_NUMBER_FORMAT = /^\s*(?:\d{10}|\d{3}-\d{2}-\d{5})\s*$/;

/**
 * The check digit for the first nine digits: sum of digit x weight, plus floor(9th digit x 5 /
 * 10), then (10 - sum mod 10) mod 10.
 */
export function businessNumberCheckDigit(firstNine: string): number {
  if (!/^\d{9}$/.test(firstNine)) {
    throw new RangeError('businessNumberCheckDigit: expected exactly 9 digits');
  }
  const digits = [...firstNine].map(Number);
  const weighted = digits.reduce((sum, digit, i) => sum + digit * CHECK_WEIGHTS[i], 0);
  const ninth = digits[8] ?? 0;
  const sum = weighted + Math.floor((ninth * 5) / 10);
  return (10 - (sum % 10)) % 10;
}

/**
 * Accepts "1234567890" or "123-45-67890" (surrounding blanks ignored) and returns the 10
 * digits. Throws {@link InvalidBusinessNumberError} (INVALID_BUSINESS_NUMBER) for any other
 * format or a wrong check digit.
 */
export function normaliseBusinessNumber(input: string): string {
  const digits =
    typeof input === 'string' && BUSINESS_NUMBER_FORMAT.test(input)
      ? input.replace(/\D/g, '')
      : null;
  if (digits === null) {
    throw new InvalidBusinessNumberError(
      'format',
      'A business registration number must be 10 digits, written as 1234567890 or 123-45-67890',
    );
  }
  const expected = businessNumberCheckDigit(digits.slice(0, 9));
  if (Number(digits[9]) !== expected) {
    throw new InvalidBusinessNumberError(
      'check-digit',
      'The business registration number fails its check digit',
    );
  }
  return digits;
}

/** True when {@link normaliseBusinessNumber} would accept `input`. */
export function isValidBusinessNumber(input: string): boolean {
  try {
    normaliseBusinessNumber(input);
    return true;
  } catch (error) {
    if (error instanceof InvalidBusinessNumberError) return false;
    throw error;
  }
}

/** 10 normalised digits as 123-45-67890. */
export function formatBusinessNumber(digits: string): string {
  if (!/^\d{10}$/.test(digits)) {
    throw new RangeError('formatBusinessNumber: expected 10 digits');
  }
  return `${digits.slice(0, 3)}-${digits.slice(3, 5)}-${digits.slice(5)}`;
}

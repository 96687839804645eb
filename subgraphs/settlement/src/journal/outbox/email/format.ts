import { seoulDateOf, seoulTimeOf, seoulWallClock } from '../../../kernel/seoul-day.js';

/**
 * How notification e-mails show values. Amounts arrive in outbox payloads as the API's decimal
 * strings (`"1100006.00"`) and are shown with thousands separators and two decimals
 * (`KRW 1,100,006.00`); times in Korean time, where the platform's calendar lives (document
 * numbers count Asia/Seoul months too).
 */

/** Escapes text for HTML element content and double-quoted attributes. */
export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

const DECIMAL = /^(-?)(\d+)(?:\.(\d+))?$/;

/**
 * `"1100006.5"` → `"KRW 1,100,006.50"`. String arithmetic only: the amount is never a float.
 * Anything that is not a decimal string is a bug in whoever wrote the payload.
 */
export function formatAmount(value: string): string {
  const match = DECIMAL.exec(value.trim());
  if (!match) throw new TypeError(`not a decimal amount: ${JSON.stringify(value)}`);
  const [, sign, whole, fraction = ''] = match;
  if (fraction.length > 2 && /[1-9]/.test(fraction.slice(2))) {
    throw new TypeError(`amount with more than two decimals: ${value}`);
  }
  const grouped = whole!.replace(/^0+(?=\d)/, '').replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `KRW ${sign}${grouped}.${fraction.slice(0, 2).padEnd(2, '0')}`;
}

/** `"2026-12-01T05:10:00.000Z"` → `"2026-12-01 14:10 KST"`. */
export function formatTime(value: string): string {
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) throw new TypeError(`not a time: ${JSON.stringify(value)}`);
  const clock = seoulWallClock(date);
  return `${seoulDateOf(clock)} ${seoulTimeOf(clock)} KST`;
}

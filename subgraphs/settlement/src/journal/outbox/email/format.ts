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

const seoul = new Intl.DateTimeFormat('en-CA', {
  timeZone: 'Asia/Seoul',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});

/** `"2026-12-01T05:10:00.000Z"` → `"2026-12-01 14:10 KST"`. */
export function formatTime(value: string): string {
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) throw new TypeError(`not a time: ${JSON.stringify(value)}`);
  const part = (type: Intl.DateTimeFormatPartTypes) =>
    seoul.formatToParts(date).find((p) => p.type === type)?.value ?? '';
  return `${part('year')}-${part('month')}-${part('day')} ${part('hour')}:${part('minute')} KST`;
}

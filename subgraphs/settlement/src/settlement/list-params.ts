import { PlatformError } from '@campaign/schema';

export const DEFAULT_LIMIT = 20;
export const MAX_LIMIT = 100;

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:\d{2})$/;
const CURSOR = /^[A-Za-z0-9_-]{1,64}$/;

function invalid(field: string, message: string): never {
  throw new PlatformError('INVALID_REQUEST', `${field} ${message}`, { field });
}

/** `limit`: 1 to 100, default 20. */
export function parseLimit(limit: number | null | undefined): number {
  if (limit === null || limit === undefined) return DEFAULT_LIMIT;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT)
    invalid('limit', `must be a whole number from 1 to ${MAX_LIMIT}.`);
  return limit;
}

/** Real calendar dates only: 2026-02-30 is refused, not rolled over to March. */
function checkCalendarDate(field: string, y: string, m: string, d: string): void {
  const date = new Date(Date.UTC(Number(y), Number(m) - 1, Number(d)));
  if (
    date.getUTCFullYear() !== Number(y) ||
    date.getUTCMonth() + 1 !== Number(m) ||
    date.getUTCDate() !== Number(d)
  ) {
    invalid(field, 'is not a calendar date.');
  }
}

/**
 * A createdAt bound. A date (`2026-03-01`) is that Asia/Seoul calendar day: `from` starts at its
 * first instant and `to` includes the whole day. A date-time needs an offset (`Z`, `+09:00`).
 * Returns the bound as `{at, inclusive}`; `to` of a date is exclusive at the next day's start.
 */
export function parseDateBound(
  value: string | null | undefined,
  field: 'from' | 'to',
): { at: Date; inclusive: boolean } | null {
  if (value === null || value === undefined || value === '') return null;
  const dateOnly = DATE.exec(value);
  if (dateOnly) {
    const [, y, m, d] = dateOnly;
    checkCalendarDate(field, y!, m!, d!);
    const start = new Date(`${y}-${m}-${d}T00:00:00+09:00`);
    if (field === 'from') return { at: start, inclusive: true };
    return { at: new Date(start.getTime() + 24 * 3600 * 1000), inclusive: false };
  }
  const dateTime = DATE_TIME.exec(value);
  if (dateTime) {
    checkCalendarDate(field, dateTime[1]!, dateTime[2]!, dateTime[3]!);
    const at = new Date(value);
    if (Number.isNaN(at.getTime())) invalid(field, 'is not a valid date-time.');
    return { at, inclusive: true };
  }
  return invalid(
    field,
    'must be an ISO date (2026-03-01) or date-time with offset (2026-03-01T09:00:00+09:00).',
  );
}

/** The opaque cursor: the position after which the next page starts (ids descend). */
export function encodeCursor(lastSequence: string): string {
  return Buffer.from(`s1:${lastSequence}`, 'utf8').toString('base64url');
}

export function decodeCursor(cursor: string | null | undefined): string | null {
  if (cursor === null || cursor === undefined || cursor === '') return null;
  const text = CURSOR.test(cursor) ? Buffer.from(cursor, 'base64url').toString('utf8') : '';
  const match = /^s1:([1-9]\d{0,17})$/.exec(text);
  if (!match) throw new PlatformError('INVALID_CURSOR', 'The cursor is not one this API issued.');
  return match[1]!;
}

export function parseIdFilter(value: string | null | undefined, field: string): string | null {
  if (value === null || value === undefined || value === '') return null;
  if (!/^[1-9]\d{0,17}$/.test(value)) invalid(field, 'must be a positive whole number.');
  return value;
}

export function parseCampaignIdFilter(value: string | null | undefined): string | null {
  if (value === null || value === undefined || value === '') return null;
  if (!/^CAM[1-9]\d{0,16}$/.test(value)) invalid('campaignId', 'must look like CAM123.');
  return value;
}

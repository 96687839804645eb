import { z } from 'zod';
import { CAMPAIGN_ID, SERIAL_ID } from '../../kernel/ids.js';
import { parseInput } from '../../kernel/input-rules.js';
import { decodePosition, encodePosition, parseLimit } from '../../kernel/paging.js';
import type { SettlementStatus } from '../../kernel/settlement-types.js';

/** A createdAt bound: `to` of a date is exclusive at the next day's start. */
export interface DateBound {
  at: Date;
  inclusive: boolean;
}

/** The filters of both settlement lists once read (the partner list has no partner or agency). */
export interface ListFilter {
  partnerId: string | null;
  agencyId: string | null;
  campaignId: string | null;
  status: SettlementStatus | null;
  from: DateBound | null;
  to: DateBound | null;
}

export interface ListArgs {
  filter: ListFilter;
  /** The id number after which the page starts (ids descend), or null for the first page. */
  after: string | null;
  pageSize: number;
}

/** What GraphQL hands over: every filter optional, null or empty meaning "not given". */
export interface RawListFilter {
  partnerId?: string | null;
  agencyId?: string | null;
  campaignId?: string | null;
  status?: SettlementStatus | null;
  from?: string | null;
  to?: string | null;
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:\d{2})$/;
const SEOUL_OFFSET = '+09:00';
const DAY_MS = 24 * 3600 * 1000;

/** Empty text counts as not given, as REST sends `?partnerId=`. */
export const given = <T extends z.ZodType>(schema: T) =>
  z.preprocess((value) => (value === '' || value === undefined ? null : value), schema.nullable());

/** Real calendar dates only: 2026-02-30 is refused, not rolled over to March. */
export const isCalendarDate = (y: string, m: string, d: string): boolean => {
  // setUTCFullYear, not Date.UTC: Date.UTC reads the years 0-99 as 1900-1999.
  const date = new Date(0);
  date.setUTCFullYear(Number(y), Number(m) - 1, Number(d));
  return (
    date.getUTCFullYear() === Number(y) &&
    date.getUTCMonth() + 1 === Number(m) &&
    date.getUTCDate() === Number(d)
  );
};

/**
 * A date (`2026-03-01`) is that Asia/Seoul calendar day: `from` starts at its first instant and
 * `to` includes the whole day. A date-time needs an offset (`Z`, `+09:00`).
 */
export const dateBound = (end: 'from' | 'to') =>
  z
    .string()
    .transform((value, ctx): DateBound => {
      const fail = (message: string) => {
        ctx.addIssue({ code: 'custom', message });
        return z.NEVER;
      };
      const dateOnly = DATE.exec(value);
      const date = dateOnly ?? DATE_TIME.exec(value);
      if (!date) {
        return fail(
          'must be an ISO date (2026-03-01) or date-time with offset (2026-03-01T09:00:00+09:00).',
        );
      }
      if (!isCalendarDate(date[1]!, date[2]!, date[3]!)) return fail('is not a calendar date.');
      if (dateOnly) {
        const start = new Date(`${value}T00:00:00${SEOUL_OFFSET}`);
        return end === 'from'
          ? { at: start, inclusive: true }
          : { at: new Date(start.getTime() + DAY_MS), inclusive: false };
      }
      const at = new Date(value);
      if (Number.isNaN(at.getTime())) return fail('is not a valid date-time.');
      return { at, inclusive: true };
    })
    // What the transform takes, as the published schemas state it.
    .meta({
      anyOf: [
        { type: 'string', pattern: DATE.source, format: 'date' },
        { type: 'string', pattern: DATE_TIME.source, format: 'date-time' },
      ],
    });

export const idFilter = z.string().regex(SERIAL_ID, { error: 'must be a positive whole number.' });

export const settlementFilterRules = z.object({
  partnerId: given(idFilter),
  agencyId: given(idFilter),
  campaignId: given(z.string().regex(CAMPAIGN_ID.pattern, { error: 'must look like CAM123.' })),
  status: given(z.custom<SettlementStatus>()),
  from: given(dateBound('from')),
  to: given(dateBound('to')),
});

const SETTLEMENT_CURSOR = 's1';

export function encodeCursor(lastIdNumber: string): string {
  return encodePosition(SETTLEMENT_CURSOR, lastIdNumber);
}

/** The position a cursor carries; INVALID_CURSOR for anything this API did not issue. */
export function decodeCursor(cursor: string | null | undefined): string | null {
  return decodePosition(SETTLEMENT_CURSOR, cursor);
}

/** Reads a list call's arguments in the order a client fixes them: limit, cursor, filters. */
export function parseListArgs(
  filter: RawListFilter | null | undefined,
  cursor: string | null | undefined,
  limit: number | null | undefined,
): ListArgs {
  const pageSize = parseLimit(limit);
  const after = decodeCursor(cursor);
  return { filter: parseInput(settlementFilterRules, { ...filter }), after, pageSize };
}

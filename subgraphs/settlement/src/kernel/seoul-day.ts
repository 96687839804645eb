/**
 * Korea Standard Time is UTC+9 all year (no daylight saving since 1988), so the Seoul wall clock
 * is the UTC fields of the instant moved by nine hours. Computed, not formatted with
 * `Intl.DateTimeFormat`: the first DateTimeFormat of a process initialises ICU's date formatting,
 * about 6-8 MB of RSS kept for the process's life, which made the settlement subgraph's idle RSS
 * the largest of the stack's (issue 27, docs/benchmarks.md "Issue 27: settlement's idle memory").
 */
const SEOUL_OFFSET_MS = 9 * 60 * 60 * 1000;

export interface SeoulWallClock {
  year: number;
  /** 1 to 12. */
  month: number;
  day: number;
  hour: number;
  minute: number;
}

const pad2 = (n: number) => String(n).padStart(2, '0');

/** The calendar fields of an instant in Asia/Seoul. */
export function seoulWallClock(at: Date): SeoulWallClock {
  if (Number.isNaN(at.getTime())) throw new RangeError('seoulWallClock: invalid date');
  const shifted = new Date(at.getTime() + SEOUL_OFFSET_MS);
  return {
    year: shifted.getUTCFullYear(),
    month: shifted.getUTCMonth() + 1,
    day: shifted.getUTCDate(),
    hour: shifted.getUTCHours(),
    minute: shifted.getUTCMinutes(),
  };
}

/** `YYYY-MM-DD` from Seoul wall-clock fields (years 1000-9999, as `en-CA` formatted them). */
export const seoulDateOf = (clock: SeoulWallClock): string =>
  `${clock.year}-${pad2(clock.month)}-${pad2(clock.day)}`;

/** `HH:MM`, 24-hour. */
export const seoulTimeOf = (clock: SeoulWallClock): string =>
  `${pad2(clock.hour)}:${pad2(clock.minute)}`;

/**
 * The calendar day of an instant in Asia/Seoul, `YYYY-MM-DD`: the platform's business day (dates
 * such as a quotation's validUntil are Seoul days, as the list filters are).
 */
export const seoulDay = (at: Date): string => seoulDateOf(seoulWallClock(at));

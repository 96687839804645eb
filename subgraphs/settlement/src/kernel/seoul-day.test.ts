import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { seoulDateOf, seoulDay, seoulTimeOf, seoulWallClock } from './seoul-day.js';

// ICU's answer, the definition the computed offset must keep (issue 27 replaced it at run time).
const icu = new Intl.DateTimeFormat('en-CA', {
  timeZone: 'Asia/Seoul',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});
const icuParts = (at: Date) => {
  const part = (type: Intl.DateTimeFormatPartTypes) =>
    icu.formatToParts(at).find((p) => p.type === type)?.value ?? '';
  return `${part('year')}-${part('month')}-${part('day')} ${part('hour')}:${part('minute')}`;
};

describe('the Seoul wall clock', () => {
  it('matches ICU for any instant from 1990 to 2200', () => {
    fc.assert(
      fc.property(
        fc.date({
          min: new Date('1990-01-01T00:00:00Z'),
          max: new Date('2200-01-01T00:00:00Z'),
          noInvalidDate: true,
        }),
        (at) => {
          const clock = seoulWallClock(at);
          expect(`${seoulDateOf(clock)} ${seoulTimeOf(clock)}`).toBe(icuParts(at));
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('refuses an invalid date, as ICU did', () => {
    expect(() => seoulDay(new Date(Number.NaN))).toThrow(RangeError);
  });

  it('turns the day at 15:00 UTC', () => {
    expect(seoulDay(new Date('2026-02-28T14:59:59.999Z'))).toBe('2026-02-28');
    expect(seoulDay(new Date('2026-02-28T15:00:00.000Z'))).toBe('2026-03-01');
  });
});

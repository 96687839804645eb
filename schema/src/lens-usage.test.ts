import { describe, expect, it } from 'vitest';
import { LENS_USAGE_MAX_DAYS, parseUsageRange, usageCsv } from './lens-usage.js';

describe('the usage range (issue 24)', () => {
  it('takes UTC calendar days, from before to, at most 92 of them', () => {
    expect(parseUsageRange({ from: '2026-11-01', to: '2026-11-30' })).toEqual({
      from: '2026-11-01',
      to: '2026-11-30',
    });
    expect(LENS_USAGE_MAX_DAYS).toBe(92);
    // 2026-09-01 .. 2026-12-01 is 92 days, both included; one more is refused.
    expect(() => parseUsageRange({ from: '2026-09-01', to: '2026-12-01' })).not.toThrow();
    expect(() => parseUsageRange({ from: '2026-08-31', to: '2026-12-01' })).toThrow(/at most 92/);
  });

  it.each([
    [{ from: '', to: '2026-11-01' }, /^from: must be a date/],
    [{ from: '2026-02-30', to: '2026-03-01' }, /^from: is not a calendar date/],
    [{ from: '2026-11-02', to: '2026-11-01' }, /to must not be before from/],
    [{ from: '2026-11-01' }, /^to: /],
    [{ from: '2026-11-01', to: '2026-11-01', extra: 1 }, /extra/],
  ])('refuses %j with a 400 naming the field', (raw, message) => {
    expect(() => parseUsageRange(raw)).toThrow(message);
    try {
      parseUsageRange(raw);
    } catch (error) {
      expect((error as { code: string }).code).toBe('INVALID_REQUEST');
    }
  });

  it('writes RFC 4180 CSV with a header line', () => {
    const row = {
      day: '2026-11-25',
      credentialId: 'c1',
      credentialKind: 'rest' as const,
      operationName: 'accounts.profile',
      calls: 2,
      succeeded: 1,
      failed: 1,
      charged: 1,
      refunded: 1,
    };
    const csv = usageCsv({
      from: '2026-11-25',
      to: '2026-11-25',
      balance: 5,
      rows: [row],
      totals: { calls: 2, charged: 1, refunded: 1 },
    });
    expect(csv).toBe(
      'day,credentialId,credentialKind,operationName,calls,succeeded,failed,charged,refunded\r\n' +
        '2026-11-25,c1,rest,accounts.profile,2,1,1,1,1\r\n',
    );
  });
});

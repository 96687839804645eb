import { describe, expect, it } from 'vitest';
import {
  decodeCursor,
  encodeCursor,
  parseCampaignIdFilter,
  parseDateBound,
  parseIdFilter,
  parseLimit,
} from './list-params.js';

describe('list parameters', () => {
  it('limit defaults to 20 and accepts 1 to 100', () => {
    expect(parseLimit(undefined)).toBe(20);
    expect(parseLimit(null)).toBe(20);
    expect(parseLimit(1)).toBe(1);
    expect(parseLimit(100)).toBe(100);
    for (const bad of [0, 101, -1, 1.5]) expect(() => parseLimit(bad)).toThrow(/limit/);
  });

  it('reads a date as the Asia/Seoul day', () => {
    expect(parseDateBound('2026-03-01', 'from')).toEqual({
      at: new Date('2026-02-28T15:00:00Z'),
      inclusive: true,
    });
    expect(parseDateBound('2026-03-01', 'to')).toEqual({
      at: new Date('2026-03-01T15:00:00Z'),
      inclusive: false,
    });
  });

  it('reads a date-time with an offset', () => {
    expect(parseDateBound('2026-03-01T09:30:00+09:00', 'to')).toEqual({
      at: new Date('2026-03-01T00:30:00Z'),
      inclusive: true,
    });
    expect(parseDateBound('2026-03-01T00:30:00.123Z', 'from')?.at.toISOString()).toBe(
      '2026-03-01T00:30:00.123Z',
    );
  });

  it.each(['2026-02-30', '2026-13-01', 'yesterday', '2026-3-1', '2026-03-01T10:00:00', '1e9'])(
    'refuses %s',
    (value) => {
      expect(() => parseDateBound(value, 'from')).toThrow(
        expect.objectContaining({ code: 'INVALID_REQUEST' }),
      );
    },
  );

  it('round-trips a cursor and refuses foreign ones', () => {
    expect(decodeCursor(encodeCursor('42'))).toBe('42');
    expect(decodeCursor(undefined)).toBeNull();
    for (const bad of ['abc', Buffer.from('s1:0').toString('base64url'), '!!', 'x'.repeat(65)]) {
      expect(() => decodeCursor(bad)).toThrow(expect.objectContaining({ code: 'INVALID_CURSOR' }));
    }
  });

  it('checks id filters', () => {
    expect(parseIdFilter('12', 'partnerId')).toBe('12');
    expect(() => parseIdFilter('0', 'partnerId')).toThrow(/partnerId/);
    expect(() => parseIdFilter('1 or 1=1', 'agencyId')).toThrow(/agencyId/);
    expect(parseCampaignIdFilter('CAM7')).toBe('CAM7');
    expect(() => parseCampaignIdFilter('SET7')).toThrow(/campaignId/);
  });
});

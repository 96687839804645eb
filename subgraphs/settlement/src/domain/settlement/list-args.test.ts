import { describe, expect, it } from 'vitest';
import { decodeCursor, encodeCursor, parseListArgs, type RawListFilter } from './list-args.js';

const filterOf = (raw: RawListFilter) => parseListArgs(raw, null, null).filter;
const invalid = (field: string) =>
  expect.objectContaining({
    code: 'INVALID_REQUEST',
    extensions: expect.objectContaining({ field }),
  });

describe('list arguments', () => {
  it('limit defaults to 20 and accepts 1 to 100', () => {
    expect(parseListArgs(null, null, undefined).pageSize).toBe(20);
    expect(parseListArgs(null, null, null).pageSize).toBe(20);
    expect(parseListArgs(null, null, 1).pageSize).toBe(1);
    expect(parseListArgs(null, null, 100).pageSize).toBe(100);
    for (const bad of [0, 101, -1, 1.5]) {
      expect(() => parseListArgs(null, null, bad)).toThrow(
        'limit must be a whole number from 1 to 100.',
      );
    }
  });

  it('reads a date as the Asia/Seoul day', () => {
    expect(filterOf({ from: '2026-03-01', to: '2026-03-01' })).toMatchObject({
      from: { at: new Date('2026-02-28T15:00:00Z'), inclusive: true },
      to: { at: new Date('2026-03-01T15:00:00Z'), inclusive: false },
    });
  });

  it('reads a date-time with an offset', () => {
    expect(filterOf({ to: '2026-03-01T09:30:00+09:00' }).to).toEqual({
      at: new Date('2026-03-01T00:30:00Z'),
      inclusive: true,
    });
    expect(filterOf({ from: '2026-03-01T00:30:00.123Z' }).from?.at.toISOString()).toBe(
      '2026-03-01T00:30:00.123Z',
    );
  });

  it.each(['2026-02-30', '2026-13-01', 'yesterday', '2026-3-1', '2026-03-01T10:00:00', '1e9'])(
    'refuses %s',
    (value) => {
      expect(() => filterOf({ from: value })).toThrow(invalid('from'));
    },
  );

  it('treats null and empty filters as not given', () => {
    expect(filterOf({ partnerId: '', agencyId: null, campaignId: undefined })).toEqual({
      partnerId: null,
      agencyId: null,
      campaignId: null,
      status: null,
      from: null,
      to: null,
    });
  });

  it('round-trips a cursor and refuses foreign ones', () => {
    expect(decodeCursor(encodeCursor('42'))).toBe('42');
    expect(decodeCursor(undefined)).toBeNull();
    expect(decodeCursor('')).toBeNull();
    for (const bad of ['abc', Buffer.from('s1:0').toString('base64url'), '!!', 'x'.repeat(65)]) {
      expect(() => decodeCursor(bad)).toThrow(expect.objectContaining({ code: 'INVALID_CURSOR' }));
    }
  });

  it('checks id filters', () => {
    expect(filterOf({ partnerId: '12' }).partnerId).toBe('12');
    expect(() => filterOf({ partnerId: '0' })).toThrow(invalid('partnerId'));
    expect(() => filterOf({ agencyId: '1 or 1=1' })).toThrow(invalid('agencyId'));
    expect(filterOf({ campaignId: 'CAM7' }).campaignId).toBe('CAM7');
    expect(() => filterOf({ campaignId: 'SET7' })).toThrow('campaignId must look like CAM123.');
  });

  it('reports the limit first, then the cursor, then the filters', () => {
    expect(() => parseListArgs({ partnerId: 'x' }, '!!', 0)).toThrow(/^limit/);
    expect(() => parseListArgs({ partnerId: 'x' }, '!!', 5)).toThrow(
      expect.objectContaining({ code: 'INVALID_CURSOR' }),
    );
    expect(() => parseListArgs({ partnerId: 'x', from: 'x' }, null, 5)).toThrow(/^partnerId/);
  });
});

import { describe, expect, it } from 'vitest';
import { PlatformError } from '@campaign/schema';
import { LENS_LIMITS } from '@campaign/schema';
import { CursorCodec } from './cursor.js';

const MAX_CURSOR_LENGTH = LENS_LIMITS.cursor.max;

const codec = new CursorCodec('a-secret-of-sixteen-or-more');
const binding = { operation: 'accounts.posts', account: { handle: 'Minji.Daily' } };
const cursor = codec.issue({ ...binding, tenantId: 'tenant-a' }, '123_456');

function code(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (error) {
    return error instanceof PlatformError ? error.code : 'OTHER';
  }
  return undefined;
}

describe('CursorCodec', () => {
  it('round-trips the page token for the same operation, account and tenant', () => {
    const opened = codec.open(cursor, binding);
    expect(opened.pageToken).toBe('123_456');
    expect(() => codec.checkTenant(opened, 'tenant-a')).not.toThrow();
  });

  it('treats handles case-insensitively', () => {
    expect(codec.open(cursor, { ...binding, account: { handle: 'minji.daily' } }).pageToken).toBe(
      '123_456',
    );
  });

  it('refuses another tenant, operation, account, secret or a changed byte', () => {
    expect(code(() => codec.checkTenant(codec.open(cursor, binding), 'tenant-b'))).toBe(
      'INVALID_CURSOR',
    );
    expect(code(() => codec.open(cursor, { ...binding, operation: 'accounts.reels' }))).toBe(
      'INVALID_CURSOR',
    );
    expect(code(() => codec.open(cursor, { ...binding, account: { accountId: '1' } }))).toBe(
      'INVALID_CURSOR',
    );
    expect(code(() => new CursorCodec('another-secret-entirely').open(cursor, binding))).toBe(
      'INVALID_CURSOR',
    );
    for (let i = 0; i < cursor.length; i++) {
      const changed = `${cursor.slice(0, i)}${cursor[i] === 'x' ? 'y' : 'x'}${cursor.slice(i + 1)}`;
      expect(
        code(() => codec.open(changed, binding)),
        `byte ${i}`,
      ).toBe('INVALID_CURSOR');
    }
  });

  it('refuses anything over 16384 characters and never issues one', () => {
    expect(code(() => codec.open('x'.repeat(MAX_CURSOR_LENGTH + 1), binding))).toBe(
      'INVALID_CURSOR',
    );
    expect(() => codec.issue({ ...binding, tenantId: 't' }, 'p'.repeat(MAX_CURSOR_LENGTH))).toThrow(
      /too long/,
    );
  });

  it('does not show the tenant id', () => {
    expect(Buffer.from(cursor.split('.')[1]!, 'base64url').toString()).not.toContain('tenant-a');
  });
});

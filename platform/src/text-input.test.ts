import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  findUnsafeText,
  SAFE_TEXT_PATTERN,
  unsafeTextError,
  unsafeTextReason,
} from './text-input.js';

describe('the text rule', () => {
  it('refuses U+0000 and unpaired surrogates, accepts everything else', () => {
    expect(unsafeTextReason('a\u0000b')).toMatch(/NUL/);
    expect(unsafeTextReason('\ud800')).toMatch(/unpaired.*\\ud800/);
    expect(unsafeTextReason('x\udc00')).toMatch(/\\udc00/);
    expect(unsafeTextReason('\ud800\ud800\udc00')).toMatch(/\\ud800/);
    expect(unsafeTextReason('\udc00\ud800')).not.toBeNull();
    for (const fine of ['', 'minji.daily', '한글', '😀 emoji', '\t\n\u0001\u007f', '\uffff']) {
      expect(unsafeTextReason(fine), fine).toBeNull();
    }
  });

  it('names the first bad field by its path', () => {
    expect(findUnsafeText({ input: { search: 'a\u0000' } })?.path).toBe('input.search');
    expect(findUnsafeText({ idempotencyKey: '\ud800' })?.path).toBe('idempotencyKey');
    expect(
      findUnsafeText({ accountRefs: [{ handle: 'ok' }, { handle: 'b\u0000' }] }, 'body')?.path,
    ).toBe('body.accountRefs[1].handle');
    expect(findUnsafeText({ 'odd-key': '\u0000' }, 'body')?.path).toBe('body["odd-key"]');
    expect(findUnsafeText('x\u0000', 'Idempotency-Key')?.path).toBe('Idempotency-Key');
    expect(findUnsafeText({ a: 1, b: null, c: [true, 2.5], d: new Date(0) })).toBeNull();
  });

  it('checks property names too, printing them escaped', () => {
    const found = findUnsafeText({ data: { 'k\u0000': 1 } }, 'body');
    expect(found?.path).toBe('body.data["k\\u0000"]');
    expect(found?.reason).toMatch(/name/);
  });

  it('walks deep nesting without recursion', () => {
    let deep: unknown = 'end\u0000';
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(findUnsafeText(deep, 'body')?.reason).toMatch(/NUL/);
  });

  it("is the catalogue's INVALID_REQUEST, naming the field", () => {
    const error = unsafeTextError({ path: 'input.reason', reason: 'contains a NUL' });
    expect(error.extensions).toMatchObject({
      code: 'INVALID_REQUEST',
      httpStatus: 400,
      retryable: false,
      field: 'input.reason',
    });
    expect(error.message).toMatch(/^input\.reason: /);
  });
});

it('SAFE_TEXT_PATTERN, the rule as the published documents state it, agrees with the rule', () => {
  const pattern = new RegExp(SAFE_TEXT_PATTERN, 'u');
  // Any UTF-16 units: NUL, lone and paired surrogates included.
  const unit = fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code));
  const text = fc.oneof(
    fc.string({ unit, maxLength: 8 }),
    fc.string({ unit: fc.constantFrom('a', '\u0000', '\ud800', '\udc00', '😀'), maxLength: 6 }),
  );
  fc.assert(
    fc.property(text, (t) => {
      expect(pattern.test(t), JSON.stringify(t)).toBe(unsafeTextReason(t) === null);
    }),
    { numRuns: 5000 },
  );
});

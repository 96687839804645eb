import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { hashKey } from '../tenant/api-key.js';
import { canonicalJson, inputHash } from './canonical.js';

/**
 * Stored rows keep their hashes: `input_hash` decides replay or IDEMPOTENCY_KEY_REUSED for keys
 * stored before a deploy, and `key_hash` finds every existing API key. Both moved to the one-shot
 * `hash` (issue 27); these pin them to the digests the incremental Hash made.
 */
describe('stored hashes', () => {
  const inputs: unknown[] = [
    { accountRef: { handle: 'minji.daily' } },
    { b: [1, 'two', null, { z: true, a: 1.5 }], a: '한글 ✓ \u0000', c: undefined },
    [],
    'plain',
  ];

  it('inputHash is the SHA-256 of name, newline and canonical JSON, as before', () => {
    for (const input of inputs) {
      const before = createHash('sha256')
        .update('profile')
        .update('\n')
        .update(canonicalJson(input))
        .digest('hex');
      expect(inputHash('profile', input)).toBe(before);
    }
  });

  it('hashKey is the SHA-256 hex of the key, as before', () => {
    for (const key of ['lk_live_abc', 'lmcp_Zm9v-_', 'loauth_é']) {
      expect(hashKey(key)).toBe(createHash('sha256').update(key).digest('hex'));
    }
  });
});

import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { isSqlHome, sqlStrings } from '../../../test/support/source-rules.js';

const root = fileURLToPath(new URL('.', import.meta.url));

describe("the platform's outbox", () => {
  it('writes its SQL only in its repository', () => {
    expect(sqlStrings(root, isSqlHome)).toEqual([]);
  });
});

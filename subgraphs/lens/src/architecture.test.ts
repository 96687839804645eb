import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { importCycles, isSqlHome, sqlStrings } from '../../../test/support/source-rules.js';

const root = fileURLToPath(new URL('.', import.meta.url));

describe('the lens house (docs/architecture.md)', () => {
  it('has no import cycle, type imports included', () => {
    expect(importCycles(root)).toEqual([]);
  });

  it('writes SQL only in repositories and migrations', () => {
    expect(sqlStrings(root, isSqlHome)).toEqual([]);
  });
});

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { errorCatalogue, isErrorCode } from '@campaign/schema';

const doc = readFileSync(new URL('../../../../docs/lens-engine.md', import.meta.url), 'utf8');

/** The rows of the error table of docs/lens-engine.md: code, status, retryable. */
function documentedErrors(): [string, number, boolean][] {
  const start = doc.indexOf('<!-- lens-error-table');
  const table = doc.slice(start).split('\n\n')[1]!;
  return table
    .split('\n')
    .slice(2)
    .map((line) => line.split('|').map((cell) => cell.trim()))
    .map(([, code, status, retryable]) => [
      code!.replace(/`/g, ''),
      Number(status),
      retryable === 'true',
    ]);
}

describe('docs/lens-engine.md', () => {
  it('documents each lens error with the status and retryability of the catalogue', () => {
    const rows = documentedErrors();
    expect(rows.length).toBeGreaterThan(15);
    for (const [code, status, retryable] of rows) {
      expect(isErrorCode(code), code).toBe(true);
      if (!isErrorCode(code)) continue;
      expect([code, status, retryable]).toEqual([
        code,
        errorCatalogue[code].httpStatus,
        errorCatalogue[code].retryable,
      ]);
    }
    // Every status of lens spec section 7 has at least one code.
    const statuses = new Set(rows.map(([, status]) => status));
    for (const status of [400, 401, 402, 403, 404, 409, 429, 500, 503]) {
      expect(statuses.has(status), String(status)).toBe(true);
    }
  });
});

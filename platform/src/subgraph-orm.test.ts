import { describe, expect, it } from 'vitest';
import { outageOf } from './error-masking.js';
import { failedBeginThrows } from './subgraph-orm.js';

/** A knex transaction as `begin` resolves it: begun, or already ended by BEGIN's failure. */
function transaction(beginError: Error | null) {
  const executionPromise = beginError ? Promise.reject(beginError) : new Promise<void>(() => {});
  executionPromise.catch(() => undefined); // knex itself listens; so does this fake
  return { isCompleted: () => beginError !== null, executionPromise };
}

describe('failedBeginThrows', () => {
  it("throws BEGIN's own error, an outage, instead of handing out an ended transaction", async () => {
    const dropped = Object.assign(
      new Error('terminating connection due to administrator command'),
      {
        code: '57P01',
      },
    );
    const connection = { begin: async (_options?: { readOnly?: boolean }) => transaction(dropped) };
    failedBeginThrows(connection);
    const error: unknown = await connection.begin().catch((e: unknown) => e);
    expect(error).toBe(dropped);
    expect(outageOf(error)).toBe('interrupted');
  });

  it('hands out a transaction that began, with the options it was asked for', async () => {
    const asked: unknown[] = [];
    const begun = transaction(null);
    const connection = {
      begin: async (options?: { readOnly?: boolean }) => (asked.push(options), begun),
    };
    failedBeginThrows(connection);
    await expect(connection.begin({ readOnly: true })).resolves.toBe(begun);
    expect(asked).toEqual([{ readOnly: true }]);
  });
});

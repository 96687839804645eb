import type { EntityManager } from '@mikro-orm/postgresql';
import { describe, expect, it, vi } from 'vitest';
import { createLogger } from '@campaign/platform';
import { Reconciler } from './reconciler.js';

describe('Reconciler loop', () => {
  it('keeps sweeping after failed sweeps (the database was down) and never overlaps them', async () => {
    let inFlight = 0;
    let most = 0;
    const results: (() => Promise<{ id: string }[]>)[] = [
      () => Promise.reject(new Error('connect ECONNREFUSED')),
      () => Promise.reject(new Error('connect ECONNREFUSED')),
      // A sweep stuck on the database for several intervals: the next one waits for it.
      () => new Promise((resolve) => setTimeout(() => resolve([]), 40)),
    ];
    const execute = vi.fn(async () => {
      inFlight++;
      most = Math.max(most, inFlight);
      try {
        return await (results.shift() ?? (async () => [{ id: 'op-1' }]))();
      } finally {
        inFlight--;
      }
    });
    const em = { execute } as unknown as EntityManager;
    const reconciler = new Reconciler(() => em, createLogger('lens', 'silent'));
    reconciler.start(5);
    await vi.waitFor(() => expect(execute.mock.calls.length).toBeGreaterThanOrEqual(5));
    await reconciler.stop();
    const calls = execute.mock.calls.length;
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(execute).toHaveBeenCalledTimes(calls);
    expect(most).toBe(1);
  });
});

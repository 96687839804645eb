import { describe, expect, it, vi } from 'vitest';
import { cachedCheck } from './readiness.js';

const options = { name: 'database unreachable', timeoutMs: 50, cacheMs: 100 };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('cachedCheck', () => {
  it('asks once per cache period and reuses failures too', async () => {
    let fail = false;
    const check = vi.fn(async () => {
      if (fail) throw new Error('connect ECONNREFUSED');
    });
    const ready = cachedCheck(check, options);
    await Promise.all([ready(), ready(), ready()]);
    expect(check).toHaveBeenCalledOnce();
    await sleep(110);
    fail = true;
    await expect(ready()).rejects.toThrow('database unreachable: connect ECONNREFUSED');
    await expect(ready()).rejects.toThrow('ECONNREFUSED');
    expect(check).toHaveBeenCalledTimes(2);
    await sleep(110);
    fail = false;
    await expect(ready()).resolves.toBeUndefined();
  });

  it('answers "not ready" when the check hangs, and does not pile up hanging checks', async () => {
    let release!: () => void;
    const check = vi.fn(() => new Promise<void>((resolve) => (release = resolve)));
    const ready = cachedCheck(check, options);
    await expect(ready()).rejects.toThrow('database unreachable: no answer within 50 ms');
    await sleep(110);
    await expect(ready()).rejects.toThrow('previous check has not answered yet');
    expect(check).toHaveBeenCalledOnce();
    release();
    await sleep(110);
    check.mockResolvedValueOnce(undefined);
    await expect(ready()).resolves.toBeUndefined();
    expect(check).toHaveBeenCalledTimes(2);
  });
});

import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import { holdFileLock, startFileLock } from './one-file-at-a-time.js';
import { eventually } from './wait.js';

describe('the file lock of the turn-taking projects', () => {
  const closing: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const close of closing.splice(0)) await close();
  });
  const lock = async () => {
    const started = await startFileLock();
    closing.push(() => started.close());
    return started.url;
  };
  const state = async (url: string) =>
    (await (await fetch(`${url}/state`)).json()) as { held: boolean; waiting: number };
  /** Waits until the lock's state satisfies `test`. */
  const until = (
    url: string,
    test: (s: { held: boolean; waiting: number }) => boolean,
    what: string,
  ) => eventually(() => state(url), test, what);
  const track = (waiting: Promise<unknown>) => {
    const seen = { granted: false };
    void waiting.then(() => (seen.granted = true));
    return seen;
  };

  it('grants one holder at a time, in the order they asked', async () => {
    const url = await lock();
    const first = await holdFileLock(url);
    const secondWait = holdFileLock(url);
    const thirdWait = holdFileLock(url);
    const second = track(secondWait);
    const third = track(thirdWait);
    await until(url, (s) => s.waiting === 2, 'two waiting');
    expect([second.granted, third.granted]).toEqual([false, false]);
    first();
    const releaseSecond = await secondWait;
    expect(await state(url)).toEqual({ held: true, waiting: 1 });
    expect(third.granted).toBe(false);
    releaseSecond();
    (await thirdWait)();
    await until(url, (s) => !s.held, 'the last one let go');
  });

  it('lets the next one in when the holder dies without letting go', async () => {
    const url = await lock();
    const holder = spawn(process.execPath, [
      '--input-type=module',
      '-e',
      `import { request } from 'node:http';
       request(${JSON.stringify(url)}, () => console.log('held')).end();`,
    ]);
    await once(holder.stdout, 'data');
    const next = holdFileLock(url);
    const seen = track(next);
    await until(url, (s) => s.waiting === 1, 'one waiting');
    expect(seen.granted).toBe(false);
    holder.kill('SIGKILL');
    (await next)();
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEphemeralStack } from '@campaign/stack';
import type { RunningStack } from '@campaign/stack';
import { cliFor } from '../support/cli.js';
import { lensProfile } from '../support/clients.js';

/**
 * `npm start` keeps its services running: a service that dies is restarted by the orchestrator,
 * which says so, and the stack answers again without anybody's help. On a stack of its own (the
 * shared one is not disturbed).
 */
describe('the orchestrator restarts a service that dies', () => {
  let running: RunningStack;
  const lines: string[] = [];

  beforeAll(async () => {
    running = await startEphemeralStack({ serviceOutput: 'ignore', log: (l) => lines.push(l) });
  }, 180_000);

  afterAll(async () => {
    await running?.stop();
  }, 60_000);

  const ready = async (url: string) =>
    fetch(new URL('/readyz', url), { signal: AbortSignal.timeout(2000) })
      .then((r) => r.status)
      .catch(() => 0);

  it.each(['lens subgraph', 'gateway'])(
    'SIGKILL of the %s: restarted, said in the log, answering again',
    async (name) => {
      const service = running.services.find((s) => s.name === name)!;
      const pid = service.pid()!;
      process.kill(pid, 'SIGKILL');
      const deadline = Date.now() + 60_000;
      while (Date.now() < deadline && service.restarts() === 0)
        await new Promise((r) => setTimeout(r, 200));
      expect(service.restarts()).toBe(1);
      expect(service.pid()).not.toBe(pid);
      expect(lines.join('\n')).toContain(`${name} exited (signal SIGKILL); restarting in`);
      expect(lines.join('\n')).toContain(`${name} restarted (pid ${service.pid()})`);
      expect(await ready(running.urls.rest)).toBe(200);
      const response = await fetch(`${running.urls.rest}/api/lens/v1/openapi.json`);
      expect(response.status).toBe(200);
      // A billed call goes through adapter → gateway → lens again.
      const key = await cliFor(running.urls, 'lens:create-key', '--credits', '10');
      const call = await lensProfile(running.urls.rest, key, 'after.restart');
      expect(call.status).toBe(200);
    },
    90_000,
  );
});

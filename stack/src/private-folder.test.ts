import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { awaitBoot } from '../../test/support/background-boot.js';
import { eventually } from '../../test/support/wait.js';
import { asRoot, exitCodeOf, type PrivateClone } from '../../test/faults/support/private-clone.js';
import { POINTER_FILE } from './postgres-placement.js';
import { LOCK_FILE } from './stack-lock.js';

/**
 * The most common container set-up: root, with the project cloned into a folder only root can
 * enter (mode 0700). PostgreSQL runs as `nobody` there, which cannot reach the clone; the stack
 * must still come up, and a second start must not take the running one's database away.
 *
 * The first `npm start` (install, compile, boot) is started by the faults tier's global setup
 * while the first tiers run (`test/faults/support/private-clone.ts`); this file checks it.
 */
function run(cwd: string, env: Record<string, string>) {
  const child = spawn(process.execPath, ['scripts/run.mjs', 'start'], {
    cwd,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('close', resolve));
  return { child, exited, output: () => output };
}

describe.runIf(asRoot)('npm start as root in a folder only root can enter', () => {
  let first: PrivateClone;
  let clone: string;
  let env: Record<string, string>;
  const firstOutput = () => readFileSync(first.logFile, 'utf8');

  beforeAll(async () => {
    first = await awaitBoot<PrivateClone>(inject('privateCloneBoot'));
    ({ clone, env } = first);
  });

  it('installs, starts PostgreSQL as nobody and becomes ready', async () => {
    expect(first.ready, firstOutput()).toBe(true);
    const gateway = await fetch(`http://127.0.0.1:${env['GATEWAY_PORT']}/readyz`);
    expect(gateway.status).toBe(200);
    // The data lives in a folder of its own under the temporary directory, found by a pointer.
    const pointer = join(clone, '.data', 'postgres', POINTER_FILE);
    expect(existsSync(pointer)).toBe(true);
    expect(existsSync(join(readFileSync(pointer, 'utf8').trim(), 'PG_VERSION'))).toBe(true);
  });

  it('refuses a second start in the same folder, naming the running one', async () => {
    const owner = JSON.parse(readFileSync(join(clone, '.data', LOCK_FILE), 'utf8')) as {
      pid: number;
    };
    const second = run(clone, env);
    expect(await second.exited).toBe(1);
    expect(second.output()).toContain(`another npm start (pid ${owner.pid}`);
    // The first stack still answers: its database was left alone.
    const still = await fetch(`http://127.0.0.1:${env['REST_PORT']}/readyz`);
    expect(still.status).toBe(200);
  }, 120_000);

  it('stops cleanly on Ctrl-C and leaves no lock behind', async () => {
    process.kill(-first.pid, 'SIGINT');
    const code = await eventually(
      async () => exitCodeOf(first),
      (exit) => exit !== null,
      'the first npm start ended',
      60_000,
    );
    expect(code, firstOutput()).toBe(0);
    expect(firstOutput()).toContain('[stack] stopped');
    expect(existsSync(join(clone, '.data', LOCK_FILE))).toBe(false);
  }, 60_000);
});

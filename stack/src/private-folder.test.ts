import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freeStackPorts } from './free-port.js';
import { POINTER_FILE } from './postgres-placement.js';
import { repoRoot } from './processes.js';
import { LOCK_FILE } from './stack-lock.js';

/**
 * The most common container set-up: root, with the project cloned into a folder only root can
 * enter (mode 0700). PostgreSQL runs as `nobody` there, which cannot reach the clone; the stack
 * must still come up, and a second start must not take the running one's database away.
 */
const asRoot = process.getuid?.() === 0;

async function readyWithin(url: string, child: ChildProcess, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline && child.exitCode === null) {
    const ok = await fetch(url, { signal: AbortSignal.timeout(2000) })
      .then((r) => r.ok)
      .catch(() => false);
    if (ok) return true;
    await new Promise((r) => setTimeout(r, 500));
  }
  return false;
}

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
  let folder: string;
  let clone: string;
  let env: Record<string, string>;
  let first: ReturnType<typeof run>;

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'campaign-private-')); // mkdtemp makes it 0700
    clone = join(folder, 'repo');
    const cloned = spawnSync('git', ['clone', '-q', repoRoot, clone], { stdio: 'inherit' });
    expect(cloned.status).toBe(0);
    env = { ...(await freeStackPorts()), LOG_LEVEL: 'warn' };
    delete process.env['DATA_DIR']; // the default: .data inside the private clone
    first = run(clone, env);
  }, 240_000);

  afterAll(async () => {
    if (first && first.child.exitCode === null) {
      process.kill(-first.child.pid!, 'SIGINT');
      await first.exited;
    }
    const pointer = clone ? join(clone, '.data', 'postgres', POINTER_FILE) : '';
    if (pointer && existsSync(pointer)) {
      const data = readFileSync(pointer, 'utf8').trim();
      await rm(join(data, '..'), { recursive: true, force: true });
    }
    if (folder) await rm(folder, { recursive: true, force: true });
  }, 60_000);

  it('installs, starts PostgreSQL as nobody and becomes ready', async () => {
    const ready = await readyWithin(
      `http://127.0.0.1:${env['REST_PORT']}/readyz`,
      first.child,
      200_000,
    );
    expect(ready, first.output()).toBe(true);
    const gateway = await fetch(`http://127.0.0.1:${env['GATEWAY_PORT']}/readyz`);
    expect(gateway.status).toBe(200);
    // The data lives in a folder of its own under the temporary directory, found by a pointer.
    const pointer = join(clone, '.data', 'postgres', POINTER_FILE);
    expect(existsSync(pointer)).toBe(true);
    expect(existsSync(join(readFileSync(pointer, 'utf8').trim(), 'PG_VERSION'))).toBe(true);
  }, 220_000);

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
    process.kill(-first.child.pid!, 'SIGINT');
    expect(await first.exited).toBe(0);
    expect(first.output()).toContain('[stack] stopped');
    expect(existsSync(join(clone, '.data', LOCK_FILE))).toBe(false);
  }, 60_000);
});

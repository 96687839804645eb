import { execFile, spawn } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { TestProject } from 'vitest/node';
// Not '@campaign/stack', which brings both subgraphs: this global setup loads at the start of the
// run, in the vitest process that hands the first tiers' workers their modules.
import { freeStackPorts } from '../../../stack/src/free-port.js';
import { repoRoot } from '../../../stack/src/processes.js';
import { POINTER_FILE } from '../../../stack/src/postgres-placement.js';
import { bootInBackground, type Boot } from '../../support/background-boot.js';
import { eventually } from '../../support/wait.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Where the private clone's first `npm start` is answered once it is up (`awaitBoot`). */
    privateCloneBoot: string;
  }
}

/**
 * The first `npm start` of `stack/src/private-folder.test.ts` (root, the project cloned into a
 * folder only root can enter), started by this global setup so that its install, compile and
 * boot run while the first tiers test instead of alone in the faults tier (issue 22: the
 * longest file of the suite). The test file checks what it did and stops it; it is the child
 * of this process, so its output and exit code are kept in files the test reads.
 */
export interface PrivateClone {
  clone: string;
  /** The ports and settings it was started with (no DATA_DIR: the default, inside the clone). */
  env: Record<string, string>;
  /** Its pid, which is also its process group (Ctrl-C goes to the whole group). */
  pid: number;
  /** Its stdout and stderr. */
  logFile: string;
  /** Holds its exit code once it has ended. */
  exitFile: string;
  /** Whether its /readyz answered 200 before it ended or 480 s went by. */
  ready: boolean;
}

export const asRoot = process.getuid?.() === 0;

/** The exit code of the first `npm start` once it has ended, else null. */
export function exitCodeOf(clone: PrivateClone): number | null {
  return existsSync(clone.exitFile) ? Number(readFileSync(clone.exitFile, 'utf8')) : null;
}

async function startPrivateClone(): Promise<Boot<PrivateClone>> {
  const folder = await mkdtemp(join(tmpdir(), 'campaign-private-')); // mkdtemp makes it 0700
  const clone = join(folder, 'repo');
  const removeFolder = async () => {
    const pointer = join(clone, '.data', 'postgres', POINTER_FILE);
    if (existsSync(pointer)) {
      await rm(join(readFileSync(pointer, 'utf8').trim(), '..'), { recursive: true, force: true });
    }
    await rm(folder, { recursive: true, force: true });
  };
  // Not spawnSync: this runs in vitest's own process, which hands the first tiers' workers their
  // modules; a clone that blocked it (seconds on a loaded disk) held every worker back.
  await promisify(execFile)('git', ['clone', '-q', repoRoot, clone]).catch(
    async (error: unknown) => {
      await removeFolder();
      throw new Error(`git clone failed: ${String(error)}`);
    },
  );
  const env: Record<string, string> = { ...(await freeStackPorts()), LOG_LEVEL: 'warn' };
  const childEnv: NodeJS.ProcessEnv = { ...process.env, ...env };
  delete childEnv['DATA_DIR']; // the default: .data inside the private clone
  const logFile = join(folder, 'npm-start.log');
  const exitFile = join(folder, 'npm-start.exit');
  const output = openSync(logFile, 'w');
  // At the lowest CPU priority (`nice` execs node in its place: the pid stays the start's, and
  // every process it starts inherits the priority): the install, compile and boot take only the
  // CPU the tiers leave idle, so no later tier waits for them or feels them (a boot at normal
  // priority held the unit and service tiers back by half their length).
  const child = spawn('nice', ['-n', '19', process.execPath, 'scripts/run.mjs', 'start'], {
    cwd: clone,
    env: childEnv,
    stdio: ['ignore', output, output],
    detached: true,
  });
  closeSync(output);
  const exited = new Promise<void>((resolve) =>
    child.once('close', (code, signal) => {
      writeFileSync(exitFile, String(code ?? (signal ? 128 : 0)));
      resolve();
    }),
  );
  const readyz = `http://127.0.0.1:${env['REST_PORT']}/readyz`;
  const state = await eventually(
    async () =>
      child.exitCode !== null || child.signalCode !== null
        ? 'ended'
        : (await fetch(readyz, { signal: AbortSignal.timeout(2000) })
              .then((r) => r.ok)
              .catch(() => false))
          ? 'ready'
          : 'starting',
    (seen) => seen !== 'starting',
    'the private clone ready',
    // Idle CPU only: on a busy machine the boot may wait for the stack tier's gaps.
    480_000,
    500,
  ).catch(() => 'starting');
  return {
    value: { clone, env, pid: child.pid!, logFile, exitFile, ready: state === 'ready' },
    stop: async () => {
      if (!existsSync(exitFile)) {
        process.kill(-child.pid!, 'SIGINT');
        await exited;
      }
      await removeFolder();
    },
  };
}

export default async function setup(project: TestProject) {
  if (!asRoot) return project.provide('privateCloneBoot', '');
  const boot = await bootInBackground(startPrivateClone, { holdsLaterTiers: false });
  project.provide('privateCloneBoot', boot.url);
  return () => boot.stop();
}

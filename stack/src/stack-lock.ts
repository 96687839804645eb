import { readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * One orchestrator (or `db:reset`) at a time per data folder. The lock file names the holder's
 * pid; a second start sees that the holder is alive and refuses, instead of taking its database
 * away. A lock whose holder is gone (SIGKILL, reboot) is taken over.
 */
export const LOCK_FILE = 'stack.lock';

export class StackLockedError extends Error {}

export interface LockOwner {
  pid: number;
  command: string;
  since: string;
}

function isNodeProcess(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    // A pid reused by an unrelated program after a reboot is not our holder.
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('node');
  } catch {
    return true; // no /proc (not Linux): trust the pid
  }
}

function readOwner(path: string): LockOwner | null {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as LockOwner;
  } catch {
    return null;
  }
}

/** The live holder of the data folder's lock (a running `npm start`), or null. */
export function stackLockHolder(dataDir: string): LockOwner | null {
  const owner = readOwner(join(dataDir, LOCK_FILE));
  return owner && owner.pid !== process.pid && isNodeProcess(owner.pid) ? owner : null;
}

export interface StackLock {
  release(): void;
}

export async function acquireStackLock(dataDir: string, command: string): Promise<StackLock> {
  await mkdir(dataDir, { recursive: true });
  const path = join(dataDir, LOCK_FILE);
  const me: LockOwner = { pid: process.pid, command, since: new Date().toISOString() };
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      writeFileSync(path, JSON.stringify(me), { flag: 'wx' });
      const release = () => {
        if (readOwner(path)?.pid === process.pid) unlinkSync(path);
      };
      process.once('exit', release);
      return { release };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const owner = readOwner(path);
    if (owner && owner.pid !== process.pid && isNodeProcess(owner.pid))
      throw new StackLockedError(
        `another ${owner.command} (pid ${owner.pid}, since ${owner.since}) is using the data in ` +
          `${dataDir}. Stop it first (Ctrl-C in its terminal, or kill ${owner.pid}), or give ` +
          'this one another DATA_DIR and ports.',
      );
    try {
      unlinkSync(path); // its holder is gone
    } catch {
      // somebody else removed it first: try again
    }
  }
  throw new StackLockedError(`could not take the lock ${path}; remove it if no stack runs`);
}

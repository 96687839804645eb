import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { repoRoot } from '@campaign/stack';
import { stack } from './clients.js';

const run = promisify(execFile);

/** Runs `npm run cli -- <args>` against the test stack's databases; returns the last stdout line. */
export function cli(...args: string[]): Promise<string> {
  return cliFor(stack(), ...args);
}

/** The same against another stack (tests that start one of their own). */
export async function cliFor(
  urls: { lensDatabase: string; settlementDatabase: string },
  ...args: string[]
): Promise<string> {
  const { stdout } = await run(
    process.execPath,
    ['--import', '@swc-node/register/esm-register', 'stack/src/cli.ts', ...args],
    {
      cwd: repoRoot,
      env: {
        ...process.env,
        LENS_DATABASE_URL: urls.lensDatabase,
        SETTLEMENT_DATABASE_URL: urls.settlementDatabase,
      },
    },
  );
  return stdout.trim().split('\n').at(-1)!;
}

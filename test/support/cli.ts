import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { beforeAll } from 'vitest';
import { repoRoot, runCli } from '@campaign/stack';
import { stack } from './clients.js';

const run = promisify(execFile);

type DatabaseUrls = { lensDatabase: string; settlementDatabase: string };

const environmentFor = (urls: DatabaseUrls) => ({
  ...process.env,
  LENS_DATABASE_URL: urls.lensDatabase,
  SETTLEMENT_DATABASE_URL: urls.settlementDatabase,
});

/** Runs the operator command `npm run cli -- <args>` against the test stack's databases; returns its last output line. */
export function cli(...args: string[]): Promise<string> {
  return cliFor(stack(), ...args);
}

/**
 * The same against another stack (tests that start one of their own). In this process: the
 * commands are the CLI's own code, without a node start per call (cliProcess proves the entry).
 */
export async function cliFor(urls: DatabaseUrls, ...args: string[]): Promise<string> {
  const printed = await runCli(args, environmentFor(urls));
  return printed.at(-1)!;
}

/** Every line a CLI command printed, against the test stack's databases. */
export function cliLines(...args: string[]): Promise<string[]> {
  return runCli(args, environmentFor(stack()));
}

/** The real `npm run cli -- <args>` (scripts/run.mjs) in a process of its own; its last stdout line. */
export async function cliProcess(urls: DatabaseUrls, ...args: string[]): Promise<string> {
  const { stdout } = await run(process.execPath, ['scripts/run.mjs', 'cli', ...args], {
    cwd: repoRoot,
    env: environmentFor(urls),
  });
  return stdout.trim().split('\n').at(-1)!;
}

/** The arguments of `lens:create-key` (for useCli). */
export const keyArgs = (...args: string[]) => ['lens:create-key', ...args];
/** The arguments of `auth:token --role <role>` (for useCli). */
export const tokenArgs = (role: string, ...args: string[]) => [
  'auth:token',
  '--role',
  role,
  ...args,
];

/**
 * The keys and tokens a test block needs, made at once before its tests (a hook of the calling
 * `describe`): each entry names the arguments of one CLI command; read `made.<name>` in the tests.
 */
export function useCli<K extends string>(commands: Record<K, string[]>): Record<K, string> {
  const made = {} as Record<K, string>;
  beforeAll(async () => {
    const entries = Object.entries(commands) as [K, string[]][];
    const results = await Promise.all(entries.map(([, args]) => cli(...args)));
    entries.forEach(([name], i) => (made[name] = results[i]!));
  });
  return made;
}

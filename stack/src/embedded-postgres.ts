import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chown, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  EmbeddedDatabaseError,
  NOBODY,
  placeDataDir,
  postgresBinaries,
  runsAsRoot,
  type PostgresBinaries,
} from './postgres-placement.js';

export { EmbeddedDatabaseError } from './postgres-placement.js';

export const PG_USER = 'postgres';
export const PG_PASSWORD = 'postgres';
const START_TIMEOUT_MS = 60_000;

export interface EmbeddedDatabase {
  /** postgres://… URL of a database on this server. */
  urlFor(database: string): string;
  /** The folder PostgreSQL really uses (it may differ from the one asked for, see placement). */
  dataDir: string;
  stop(): Promise<void>;
  /** Starts the server again after `stop()`, on the same data (fault tests use both). */
  start(): Promise<void>;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * The binaries run as `nobody` when we are root, from `/` (the caller's folder may be closed to
 * them), in a process group of their own so that a Ctrl-C in the terminal reaches only the
 * orchestrator, which stops the database last.
 */
function spawnPostgresTool(path: string, args: string[]): ChildProcess {
  return spawn(path, args, {
    ...(runsAsRoot() ? NOBODY : {}),
    cwd: '/',
    detached: true,
    env: { ...process.env, LC_MESSAGES: 'C' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/** The last lines a tool wrote, for an error message that says what went wrong. */
function tail(output: string, lines = 6): string {
  return output.trim().split('\n').slice(-lines).join('\n');
}

async function initialise(
  binaries: PostgresBinaries,
  dataDir: string,
  durable: boolean,
): Promise<void> {
  const passwordFile = join(tmpdir(), `campaign-pg-password-${randomBytes(8).toString('hex')}`);
  await writeFile(passwordFile, `${PG_PASSWORD}\n`, { mode: 0o600 });
  if (runsAsRoot()) await chown(passwordFile, NOBODY.uid, NOBODY.gid);
  try {
    const args = [
      `--pgdata=${dataDir}`,
      '--auth=password',
      `--username=${PG_USER}`,
      `--pwfile=${passwordFile}`,
      '--encoding=UTF8',
      '--locale=C',
      ...(durable ? [] : ['--no-sync']),
    ];
    const child = spawnPostgresTool(binaries.initdb, args);
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const code = await new Promise<number | null>((resolve, reject) => {
      child.once('error', reject);
      child.once('close', resolve);
    });
    if (code !== 0)
      throw new EmbeddedDatabaseError(`initdb failed (exit ${code}):\n${tail(output)}`);
  } finally {
    await rm(passwordFile, { force: true });
  }
}

/**
 * A throw-away server (tests) does not wait for the disk: nothing must survive a machine crash,
 * and every commit's fsync (and CREATE DATABASE's checkpoint) costs a loaded test machine dearly.
 * A clean stop still writes everything, so a stop and start keep the data.
 */
const NOT_DURABLE = ['fsync=off', 'synchronous_commit=off', 'full_page_writes=off'];

/** Starts `postgres` and resolves once it accepts connections; rejects with its own words. */
function launch(
  binaries: PostgresBinaries,
  dataDir: string,
  port: number,
  durable: boolean,
): Promise<ChildProcess> {
  const child = spawnPostgresTool(binaries.postgres, [
    '-D',
    dataDir,
    '-p',
    String(port),
    '-c',
    'listen_addresses=127.0.0.1',
    '-c',
    'unix_socket_directories=',
    '-c',
    'max_connections=200',
    ...(durable ? [] : NOT_DURABLE.flatMap((setting) => ['-c', setting])),
  ]);
  child.stdout?.resume();
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new EmbeddedDatabaseError(`PostgreSQL did not start in 60 s:\n${tail(output)}`));
    }, START_TIMEOUT_MS);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (!output.includes('database system is ready to accept connections')) return;
      clearTimeout(timer);
      child.stderr?.off('data', onData);
      child.stderr?.resume(); // keep draining: a full pipe would block the server
      resolve(child);
    };
    child.stderr?.on('data', onData);
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(new EmbeddedDatabaseError(`PostgreSQL could not be run: ${error.message}`));
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      const inUse = output.includes('Address already in use')
        ? ` (port ${port} is taken: set EMBEDDED_PG_PORT to a free port)`
        : '';
      reject(
        new EmbeddedDatabaseError(`PostgreSQL exited (code ${code})${inUse}:\n${tail(output)}`),
      );
    });
  });
}

function stopProcess(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGINT'); // PostgreSQL's "fast" shutdown: clients disconnected, data consistent
  });
}

/**
 * A server left behind by an orchestrator that is gone (SIGKILL skips our shutdown) still holds
 * the data folder: stop it before starting ours. Called only by the holder of the stack lock.
 */
async function stopLeftoverServer(dataDir: string, log: (line: string) => void): Promise<void> {
  const pidFile = join(dataDir, 'postmaster.pid');
  if (!existsSync(pidFile)) return;
  const pid = Number((await readFile(pidFile, 'utf8')).split('\n')[0]);
  if (Number.isInteger(pid) && pid > 0 && isAlive(pid)) {
    log(`stopping a PostgreSQL server left running by an earlier run that is gone (pid ${pid})`);
    process.kill(pid, 'SIGINT');
    for (let i = 0; i < 100 && isAlive(pid); i++) await new Promise((r) => setTimeout(r, 100));
    if (isAlive(pid))
      throw new EmbeddedDatabaseError(`PostgreSQL pid ${pid} still holds ${dataDir}; stop it`);
  }
  await rm(pidFile, { force: true });
}

export async function startEmbeddedPostgres(options: {
  dataDir: string;
  port: number;
  log: (line: string) => void;
  /** False for a throw-away test server: no fsync (see NOT_DURABLE). */
  durable?: boolean;
}): Promise<EmbeddedDatabase> {
  const { port, log } = options;
  const durable = options.durable ?? true;
  const binaries = await postgresBinaries(log);
  const dataDir = await placeDataDir(options.dataDir, log);
  await stopLeftoverServer(dataDir, log);
  if (!existsSync(join(dataDir, 'PG_VERSION'))) {
    log(`initialising PostgreSQL data in ${dataDir}`);
    await initialise(binaries, dataDir, durable);
  }
  let server: ChildProcess | null = await launch(binaries, dataDir, port, durable);
  return {
    urlFor: (database) => `postgres://${PG_USER}:${PG_PASSWORD}@127.0.0.1:${port}/${database}`,
    dataDir,
    stop: async () => {
      if (server) await stopProcess(server);
      server = null;
    },
    start: async () => {
      server ??= await launch(binaries, dataDir, port, durable);
    },
  };
}

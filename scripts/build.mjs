#!/usr/bin/env node
// Compiles every workspace package's src/ to dist/ (plain JavaScript, ES modules) with SWC, when
// the sources changed since the last build. Services run from dist/ (stack/src/processes.ts) and
// resolve each other's compiled entry through the `campaign-compiled` export condition; tsc and
// vitest keep reading src/ (the `default` condition). Plain JavaScript, like run.mjs: it runs
// before anything else is compiled. Usage: node scripts/build.mjs [--force] [--quiet]
import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** The packages whose src/ is compiled: every one a service or the orchestrator imports. */
export const PACKAGES = [
  'schema',
  'platform',
  'providers',
  'subgraphs/lens',
  'subgraphs/settlement',
  'gateway',
  'rest-adapter',
  'stack',
  'bench',
];

const STAMP = join(root, 'node_modules', '.build-fingerprint');

/** What tsconfig.base.json asks of the compiler: legacy decorators with their metadata. */
const SWC_OPTIONS = {
  jsc: {
    parser: { syntax: 'typescript', decorators: true },
    transform: {
      legacyDecorator: true,
      decoratorMetadata: true,
      useDefineForClassFields: false,
    },
    target: 'es2022',
    keepClassNames: true,
  },
  module: { type: 'es6' },
  sourceMaps: false,
  swcrc: false,
  configFile: false,
};

const isTest = (path) => /\.test\.ts$/.test(path) || path.endsWith('.d.ts');

async function listFiles(dir) {
  if (!existsSync(dir)) return [];
  const out = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await listFiles(path)));
    else if (entry.isFile() && !isTest(path)) out.push(path);
  }
  return out.sort();
}

/** A hash of every compiled input (names and contents), this script and the compiler's version. */
async function fingerprint(files, swcVersion) {
  const hash = createHash('sha256');
  hash.update(swcVersion);
  hash.update(await readFile(fileURLToPath(import.meta.url)));
  for (const file of files) {
    hash.update(relative(root, file));
    hash.update(await readFile(file));
  }
  return hash.digest('hex');
}

async function compilePackage(swc, pkg, files) {
  const src = join(root, pkg, 'src');
  // Written beside dist/ and swapped in at the end, so a service starting meanwhile never
  // reads a half-written tree.
  const temp = join(root, pkg, `dist.tmp-${process.pid}`);
  await rm(temp, { recursive: true, force: true });
  await Promise.all(
    files.map(async (file) => {
      const rel = relative(src, file);
      const target = join(temp, rel.endsWith('.ts') ? rel.replace(/\.ts$/, '.js') : rel);
      await mkdir(dirname(target), { recursive: true });
      if (!rel.endsWith('.ts')) return writeFile(target, await readFile(file));
      const { code } = await swc.transformFile(file, { ...SWC_OPTIONS, filename: file });
      return writeFile(target, code);
    }),
  );
  const dist = join(root, pkg, 'dist');
  await rm(dist, { recursive: true, force: true });
  await rename(temp, dist);
}

const LOCK = join(root, 'node_modules', '.build-lock');
const STALE_LOCK_MS = 60_000;

/**
 * One build at a time per checkout (several test runs or stacks may start together): a lock
 * folder (mkdir is atomic), taken over when older than a minute (a build killed midway).
 */
async function withLock(work) {
  for (;;) {
    try {
      await mkdir(LOCK);
      break;
    } catch (error) {
      if (error.code !== 'EEXIST') throw error;
      const age = Date.now() - (await stat(LOCK).catch(() => ({ mtimeMs: Date.now() }))).mtimeMs;
      if (age > STALE_LOCK_MS) await rm(LOCK, { recursive: true, force: true });
      else await sleep(100);
    }
  }
  try {
    return await work();
  } finally {
    await rm(LOCK, { recursive: true, force: true });
  }
}

/** Compiles when the sources changed (checked again under the lock); true when it did. */
export function build(options = {}) {
  return withLock(() => buildUnlocked(options));
}

async function buildUnlocked({ force = false, quiet = false }) {
  const swc = await import('@swc/core');
  const byPackage = new Map();
  for (const pkg of PACKAGES) byPackage.set(pkg, await listFiles(join(root, pkg, 'src')));
  const print = await fingerprint([...byPackage.values()].flat(), swc.version);
  const dists = PACKAGES.filter((p) => byPackage.get(p).length).map((p) => join(root, p, 'dist'));
  const built = existsSync(STAMP) && (await readFile(STAMP, 'utf8')) === print;
  if (!force && built && dists.every((d) => existsSync(d))) return false;
  const started = Date.now();
  for (const [pkg, files] of byPackage) if (files.length) await compilePackage(swc, pkg, files);
  await mkdir(dirname(STAMP), { recursive: true });
  await writeFile(STAMP, print);
  if (!quiet) {
    const count = [...byPackage.values()].flat().length;
    console.error(`[build] ${count} files compiled to dist/ in ${Date.now() - started} ms`);
  }
  return true;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await build({ force: process.argv.includes('--force'), quiet: process.argv.includes('--quiet') });
}

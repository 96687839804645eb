#!/usr/bin/env node
// Entry point of every npm script: makes sure the workspace's dependencies are installed (pnpm,
// fetched through npx, never assumed), then runs the requested task. Plain JavaScript on
// purpose: it runs before anything is installed.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const PNPM = 'pnpm@10.34.9';
const TS = ['--import', '@swc-node/register/esm-register', '--enable-source-maps'];

function run(command, args, options = {}) {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', ...options });
  if (result.error) throw result.error;
  return result.status ?? (result.signal ? 1 : 0);
}

function must(command, args, options) {
  const status = run(command, args, options);
  if (status !== 0) process.exit(status);
}

function installFingerprint() {
  const hash = createHash('sha256');
  for (const file of ['pnpm-lock.yaml', 'pnpm-workspace.yaml', 'package.json']) {
    hash.update(existsSync(join(root, file)) ? readFileSync(join(root, file)) : '');
  }
  return hash.digest('hex');
}

function ensureInstalled() {
  const stamp = join(root, 'node_modules', '.install-fingerprint');
  const fingerprint = installFingerprint();
  if (existsSync(stamp) && readFileSync(stamp, 'utf8') === fingerprint) return;
  console.error(`[setup] installing dependencies with ${PNPM} (first run or changed lockfile)`);
  const started = Date.now();
  // Install output goes to stderr, so a command's result stays the last line of stdout.
  must(
    'npx',
    [
      '--yes',
      PNPM,
      'install',
      '--frozen-lockfile',
      '--reporter=append-only',
      '--config.confirmModulesPurge=false',
    ],
    {
      env: { ...process.env, npm_config_update_notifier: 'false' },
      stdio: ['inherit', 2, 'inherit'],
    },
  );
  writeFileSync(stamp, installFingerprint());
  console.error(`[setup] dependencies ready in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

const bin = (name) => join(root, 'node_modules', '.bin', name);

function timed(label, command, args, options) {
  const started = Date.now();
  console.log(`\n[test] ${label}`);
  must(command, args, options);
  console.log(`[test] ${label}: ok in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

/** Types, lint and format: what `npm run lint` runs and `npm test` runs first. */
function staticChecks() {
  timed('types (tsc)', bin('tsc'), ['-p', 'tsconfig.json']);
  timed('lint (eslint)', bin('eslint'), ['--max-warnings=0', '.']);
  timed('format (prettier)', bin('prettier'), ['--check', '--log-level=warn', '.']);
}

const RESULTS = join(root, 'node_modules', '.vitest-results.json');

/** One plain closing line that any CI log reader understands. */
function printSummary() {
  const results = JSON.parse(readFileSync(RESULTS, 'utf8'));
  console.log(
    `\ntests: ${results.numPassedTests} passed, ${results.numFailedTests} failed, ${results.numPendingTests} skipped`,
  );
}

// Ctrl-C reaches the whole process group: the task handles it (the stack stops cleanly) and this
// wrapper waits for it and exits with its code, instead of dying first.
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => undefined);

const [task, ...rest] = process.argv.slice(2);
ensureInstalled();

/** Services run as compiled JavaScript: compile src/ to dist/ when the sources changed. */
const compile = (...flags) => must(process.execPath, ['scripts/build.mjs', ...flags]);

switch (task) {
  case 'build':
    compile('--force');
    break;
  case 'start':
    compile();
    process.exit(run(process.execPath, [...TS, 'stack/src/start.ts', ...rest]));
    break;
  case 'cli':
    process.exit(run(process.execPath, [...TS, 'stack/src/cli.ts', ...rest]));
    break;
  case 'compose':
    process.exit(run(process.execPath, [...TS, 'stack/src/compose.ts', ...rest]));
    break;
  case 'bench':
    compile();
    process.exit(run(process.execPath, [...TS, 'bench/run.ts', ...rest]));
    break;
  case 'fuzz': {
    // `npm run fuzz -- --runs N [--seed S]`: the fuzz test of the faults project, for longer.
    const flag = (name) => (rest.includes(name) ? rest[rest.indexOf(name) + 1] : undefined);
    const env = { ...process.env, FUZZ_RUNS: flag('--runs') ?? '1000' };
    if (flag('--seed')) env.FUZZ_SEED = flag('--seed');
    process.exit(
      run(bin('vitest'), ['run', '--project', 'faults', 'test/faults/fuzz.test.ts'], { env }),
    );
    break;
  }
  case 'lint':
    staticChecks();
    break;
  case 'format':
    must(bin('prettier'), ['--write', '--log-level=warn', '.']);
    break;
  case 'test':
    staticChecks();
    timed('tests (vitest)', bin('vitest'), [
      'run',
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${RESULTS}`,
      ...rest,
    ]);
    printSummary();
    break;
  default:
    console.error(
      'usage: node scripts/run.mjs start|test|cli|compose|bench|build|fuzz|lint|format [args]',
    );
    process.exit(2);
}

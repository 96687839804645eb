#!/usr/bin/env node
// Entry point of every npm script: makes sure the workspace's dependencies are installed (pnpm,
// fetched through npx, never assumed), then runs the requested task. Plain JavaScript on
// purpose: it runs before anything is installed.
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { closeSync, existsSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { setPriority } from 'node:os';
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

/** Types, lint and format: what `npm run lint` runs, and `npm test` beside the tests. */
const STATIC_CHECKS = [
  ['types (tsc)', 'tsc', ['-p', 'tsconfig.json']],
  ['lint (eslint)', 'eslint', ['--max-warnings=0', '.']],
  ['format (prettier)', 'prettier', ['--check', '--log-level=warn', '.']],
];

function staticChecks() {
  for (const [label, name, args] of STATIC_CHECKS) timed(label, bin(name), args);
}

/**
 * Niceness of the static checks while vitest runs (issue 22): the lowest, so they take only the
 * CPU the tests leave idle (the faults tier mostly waits for outages and kills) and the tests'
 * processes, whose budgets of a second must not feel them, keep theirs. Back to 0 once vitest is
 * done (when allowed): on a machine busy with other work they then finish as they did before.
 */
const BESIDE_TESTS_NICE = 19;

/** Starts a static check with its output in a file; `done` gives its status, time and output. */
function besideTests(label, name, args) {
  const started = Date.now();
  const file = join(root, 'node_modules', `.check-${name}.log`);
  const fd = openSync(file, 'w');
  const child = spawn(bin(name), args, { cwd: root, stdio: ['ignore', fd, fd] });
  closeSync(fd);
  const lower = (nice) => {
    try {
      if (child.exitCode === null) setPriority(child.pid, nice);
    } catch {
      // Raising the priority back needs root: the check then finishes at its niceness.
    }
  };
  lower(BESIDE_TESTS_NICE);
  const done = new Promise((resolve) => {
    const finish = (status, why = '') =>
      resolve({
        label,
        status,
        seconds: ((Date.now() - started) / 1000).toFixed(1),
        output: () => why + readFileSync(file, 'utf8'),
      });
    child.once('error', (error) => finish(1, `${error.message}\n`));
    child.once('close', (code, signal) => finish(code ?? (signal ? 1 : 0)));
  });
  return { done, restore: () => lower(0) };
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
  case 'test': {
    // The static checks run beside the tests instead of before them (issue 22: about 30 s of a
    // fresh clone's five minutes); their output is printed once the tests are over.
    const checks = STATIC_CHECKS.map(([label, name, args]) => besideTests(label, name, args));
    console.log(`\n[test] ${STATIC_CHECKS.map(([label]) => label).join(', ')}: beside the tests`);
    const started = Date.now();
    rmSync(RESULTS, { force: true });
    console.log('\n[test] tests (vitest)');
    // Not spawnSync: the checks' ends are seen (and timed) while the tests run.
    const vitest = spawn(
      bin('vitest'),
      ['run', '--reporter=default', '--reporter=json', `--outputFile.json=${RESULTS}`, ...rest],
      { cwd: root, stdio: 'inherit' },
    );
    const tests = await new Promise((resolve) => {
      vitest.once('error', (error) => {
        console.error(error.message);
        resolve(1);
      });
      vitest.once('close', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
    });
    const took = ((Date.now() - started) / 1000).toFixed(1);
    console.log(`[test] tests (vitest): ${tests === 0 ? 'ok' : `failed (${tests})`} in ${took} s`);
    for (const check of checks) check.restore();
    let failed = tests !== 0;
    for (const result of await Promise.all(checks.map((check) => check.done))) {
      if (result.status !== 0) {
        failed = true;
        console.log(`\n[test] ${result.label}: failed (${result.status}) in ${result.seconds} s`);
        console.log(result.output());
      } else console.log(`[test] ${result.label}: ok in ${result.seconds} s`);
    }
    if (existsSync(RESULTS)) printSummary();
    if (failed) process.exit(1);
    break;
  }
  default:
    console.error(
      'usage: node scripts/run.mjs start|test|cli|compose|bench|build|fuzz|lint|format [args]',
    );
    process.exit(2);
}

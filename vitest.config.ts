import { createRequire } from 'node:module';
import swc from 'unplugin-swc';
import { defineConfig } from 'vitest/config';
import { TAKES_TURNS, TierSequencer } from './test/support/sequencer.js';

// SWC emits the decorator metadata that type-graphql and MikroORM read at run time.
const plugins = [
  swc.vite({ jsc: { transform: { legacyDecorator: true, decoratorMetadata: true } } }),
];
const exclude = ['**/node_modules/**', '.data/**'];
/**
 * graphql as Node loads it for the services (its CommonJS entry: the package has no `exports`),
 * for the service tier, which executes a type-graphql schema: vite would resolve our sources'
 * `graphql` to its ES module while type-graphql and graphql-scalars, loaded by Node, get the
 * CommonJS one, and type-graphql refuses a scalar of the other copy's class.
 */
const nodeGraphql = [
  {
    find: /^graphql$/,
    replacement: createRequire(new URL('./schema/package.json', import.meta.url)).resolve(
      'graphql',
    ),
  },
];
/** Unit-tier files that boot a whole stack (`npm start` in a clone): run with the faults tier. */
const wholeStackUnits = ['stack/src/private-folder.test.ts'];
/** Faults files on a stack of their own (not the faults stack): they run beside its files. */
const ownStackFaults = [
  'test/faults/observability.test.ts',
  'test/faults/notification-faults.test.ts',
  'test/faults/lens-database-outage.test.ts',
];
/**
 * Two workers for the unit and service tiers (one tier, same count: vitest requires it), whose
 * files share nothing (a database each, ports bound at 0): vitest's default on a 2-core machine is
 * one, and two took the pair from 31 s to 21 s alone. The stack tier keeps one: its files share
 * a stack, and its one-second budgets must not feel a second file's load.
 */
const FIRST_TIER_WORKERS = 2;
/**
 * The faults tier: the files on the faults stack take turns (one at a time: they stop its
 * database and kill its services), and so do the files that boot a stack of their own, but one
 * of each runs at the same time (issue 22: the tier was half of the suite, mostly waiting for
 * outages, restarts and a 20 s SMTP server). Two workers, and a lock per project
 * (`one-file-at-a-time.ts`): vitest gives every project of a tier the same `maxWorkers`.
 */
const FAULTS_TIER_WORKERS = 2;
/** What the faults tier's files share: hooks and tests wait seconds for outages and boots. */
const faultsTier = {
  sequence: { groupOrder: 2 },
  exclude,
  isolate: false,
  maxWorkers: FAULTS_TIER_WORKERS,
  testTimeout: 120_000,
  hookTimeout: 180_000,
};

export default defineConfig({
  test: {
    // The global teardowns stop every stack booted in the background (five with the faults
    // tier's): on a loaded machine that outlasts vitest's 10 s default, after which it exits
    // without waiting and leaves PostgreSQL servers and temporary folders behind.
    teardownTimeout: 120_000,
    sequence: { sequencer: TierSequencer },
    projects: [
      {
        plugins,
        test: {
          name: 'unit',
          // Tiers run in order: unit and service together first (seconds, and a failure there
          // says the most), then the shared stack's files, then the faults stack's.
          sequence: { groupOrder: 0 },
          include: [
            'schema/**/*.test.ts',
            'platform/**/*.test.ts',
            'subgraphs/**/*.test.ts',
            'gateway/**/*.test.ts',
            'rest-adapter/**/*.test.ts',
            'providers/**/*.test.ts',
            'stack/**/*.test.ts',
            'bench/src/**/*.test.ts',
          ],
          exclude: [...exclude, ...wholeStackUnits],
          // One module graph per worker here too (issue 22: 189 s → 71 s on a loaded machine):
          // no file mocks modules, and the one that fakes the clock restores it after each test.
          isolate: false,
          maxWorkers: FIRST_TIER_WORKERS,
          testTimeout: 30_000,
        },
      },
      {
        plugins,
        test: {
          // Rules against real PostgreSQL, no services: one database per file (fast, every change).
          name: 'service',
          alias: nodeGraphql,
          sequence: { groupOrder: 0 },
          include: ['test/service/**/*.test.ts'],
          exclude,
          // No module mocks here: the files share one module graph per worker instead of
          // importing the subgraphs again for each file (half the tier's time).
          isolate: false,
          maxWorkers: FIRST_TIER_WORKERS,
          globalSetup: ['test/support/global-database.ts'],
          testTimeout: 30_000,
          hookTimeout: 120_000,
        },
      },
      {
        plugins,
        test: {
          name: 'stack',
          sequence: { groupOrder: 1 },
          include: ['test/**/*.test.ts'],
          exclude: [...exclude, 'test/service/**', 'test/faults/**'],
          globalSetup: ['test/support/global-stack.ts'],
          // The stack boots while the first tier runs; each file waits here until it is up.
          setupFiles: ['test/support/stack-ready.ts'],
          // Black-box files over HTTP without module mocks: one module graph per worker.
          isolate: false,
          testTimeout: 60_000,
          hookTimeout: 180_000,
        },
      },
      {
        plugins,
        test: {
          // Issue 16: faults, two replicas, the second federation engine and fuzzing, on one
          // dedicated stack whose database and services the files stop and kill: one at a time.
          name: 'faults',
          ...faultsTier,
          include: ['test/faults/**/*.test.ts'],
          exclude: [...exclude, ...ownStackFaults],
          globalSetup: [
            'test/faults/support/global-faults.ts',
            'test/support/one-file-at-a-time.ts',
          ],
          setupFiles: ['test/faults/support/faults-ready.ts', TAKES_TURNS],
        },
      },
      {
        plugins,
        test: {
          // Files that boot a whole stack of their own (issue 22), one at a time, beside the
          // faults stack's: the private-folder test's `npm start` in a clone (started while the
          // first tiers run, at the lowest priority), the mail-failure and lens-outage stacks
          // (booted when their file asks) and the observed stack (booted in its file).
          name: 'faults-own-stack',
          ...faultsTier,
          include: [...ownStackFaults, ...wholeStackUnits],
          globalSetup: [
            'test/faults/support/private-clone.ts',
            'test/faults/support/notification-stack.ts',
            'test/faults/support/lens-outage-stack.ts',
            'test/support/one-file-at-a-time.ts',
          ],
          setupFiles: [TAKES_TURNS],
        },
      },
    ],
  },
});

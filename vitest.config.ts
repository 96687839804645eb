import swc from 'unplugin-swc';
import { defineConfig } from 'vitest/config';

// SWC emits the decorator metadata that type-graphql and MikroORM read at run time.
const plugins = [
  swc.vite({ jsc: { transform: { legacyDecorator: true, decoratorMetadata: true } } }),
];
const exclude = ['**/node_modules/**', '.data/**'];
/** Unit-tier files that boot a whole stack (`npm start` in a clone): run with the faults tier. */
const wholeStackUnits = ['stack/src/private-folder.test.ts'];
/**
 * Two workers for the unit and service tiers (one tier, same count: vitest requires it), whose
 * files share nothing (a database each, ports bound at 0): vitest's default on a 2-core machine is
 * one, and two took the pair from 31 s to 21 s alone. The later tiers keep one: their files share
 * a stack, and its one-second budgets must not feel a second file's load.
 */
const FIRST_TIER_WORKERS = 2;

export default defineConfig({
  test: {
    // The global teardowns stop every stack booted in the background (five with the faults
    // tier's): on a loaded machine that outlasts vitest's 10 s default, after which it exits
    // without waiting and leaves PostgreSQL servers and temporary folders behind.
    teardownTimeout: 120_000,
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
          // Files that boot a whole stack of their own live here too (issue 22).
          name: 'faults',
          sequence: { groupOrder: 2 },
          include: ['test/faults/**/*.test.ts', ...wholeStackUnits],
          exclude,
          // The stacks of the files that need one of their own (the private-folder test's
          // `npm start` in a clone, the mail-failure and lens-outage stacks) boot beside the first tiers too.
          globalSetup: [
            'test/faults/support/global-faults.ts',
            'test/faults/support/private-clone.ts',
            'test/faults/support/notification-stack.ts',
            'test/faults/support/lens-outage-stack.ts',
          ],
          setupFiles: ['test/faults/support/faults-ready.ts'],
          fileParallelism: false,
          isolate: false,
          testTimeout: 120_000,
          hookTimeout: 180_000,
        },
      },
    ],
  },
});

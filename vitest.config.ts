import swc from 'unplugin-swc';
import { defineConfig } from 'vitest/config';

// SWC emits the decorator metadata that type-graphql and MikroORM read at run time.
const plugins = [
  swc.vite({ jsc: { transform: { legacyDecorator: true, decoratorMetadata: true } } }),
];
const exclude = ['**/node_modules/**', '.data/**'];

export default defineConfig({
  test: {
    projects: [
      {
        plugins,
        test: {
          name: 'unit',
          include: [
            'schema/**/*.test.ts',
            'platform/**/*.test.ts',
            'subgraphs/**/*.test.ts',
            'gateway/**/*.test.ts',
            'rest-adapter/**/*.test.ts',
            'providers/**/*.test.ts',
            'stack/**/*.test.ts',
          ],
          exclude,
          testTimeout: 30_000,
        },
      },
      {
        plugins,
        test: {
          // Rules against real PostgreSQL, no services: one database per file (fast, every change).
          name: 'service',
          include: ['test/service/**/*.test.ts'],
          exclude,
          globalSetup: ['test/support/global-database.ts'],
          testTimeout: 30_000,
          hookTimeout: 120_000,
        },
      },
      {
        plugins,
        test: {
          name: 'stack',
          include: ['test/**/*.test.ts'],
          exclude: [...exclude, 'test/service/**', 'test/faults/**'],
          globalSetup: ['test/support/global-stack.ts'],
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
          include: ['test/faults/**/*.test.ts'],
          exclude,
          globalSetup: ['test/faults/support/global-faults.ts'],
          fileParallelism: false,
          testTimeout: 120_000,
          hookTimeout: 180_000,
        },
      },
    ],
  },
});

import type { TestProject } from 'vitest/node';
import { startEphemeralStack } from '@campaign/stack';
import type { StackUrls } from '@campaign/stack';

declare module 'vitest' {
  export interface ProvidedContext {
    stack: StackUrls;
  }
}

/** Test timings: short enough for a quick suite, with slow_ still well past the budget. */
export const TEST_SYNC_BUDGET_MS = 1000;
export const TEST_SLOW_DELAY_MS = 2500;
/** The lens reconciler sweeps this often in tests (expired leases are found within it). */
export const TEST_RECONCILE_INTERVAL_MS = 500;

/**
 * One real stack for all whole-stack tests: embedded PostgreSQL in a temporary folder, the
 * simulated upstream, both subgraphs, the gateway and the REST adapter, on free ports.
 */
export default async function setup(project: TestProject) {
  const stack = await startEphemeralStack({
    serviceOutput: process.env['STACK_LOGS'] ? 'inherit' : 'ignore',
    serviceEnv: {
      LENS_SYNC_BUDGET_MS: String(TEST_SYNC_BUDGET_MS),
      LENS_RECONCILE_INTERVAL_MS: String(TEST_RECONCILE_INTERVAL_MS),
    },
    upstreamSlowDelayMs: TEST_SLOW_DELAY_MS,
  });
  project.provide('stack', stack.urls);
  return () => stack.stop();
}

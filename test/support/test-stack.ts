import type { ProvidedContext } from 'vitest';
import type { TestProject } from 'vitest/node';
import type { RunningStack, startEphemeralStack } from '@campaign/stack';
import { bootInBackground, type Boot, type BootTiming } from './background-boot.js';

/** Test timings: short enough for a quick suite, with slow_ still well past the budget. */
export const TEST_SYNC_BUDGET_MS = 1000;
export const TEST_SLOW_DELAY_MS = 2500;
/** The lens reconciler sweeps this often in tests (expired leases are found within it). */
export const TEST_RECONCILE_INTERVAL_MS = 500;
/**
 * Outbox delivery in tests: a failed attempt is retried after 0.2 s, 0.4 s, ... at most 2 s apart,
 * so a test that makes the sinks fail once waits seconds, not minutes. Given to every settlement
 * process a test starts against the shared databases, which delivers their messages too.
 */
export const TEST_OUTBOX_ENV = { OUTBOX_RETRY_BASE_MS: '200', OUTBOX_RETRY_MAX_MS: '2000' };
/**
 * The simulated tax-invoice provider decides (and calls the webhook) 1 s after a request, so
 * webhook tests wait a second, not three. Tests that need an issuance to stay open name the
 * counterparty `manual_` (only the approval page decides) or `down_` (the provider never has it).
 */
export const TEST_TAX_INVOICE_DELAY_MS = 1000;
/**
 * The partner's request waits this long for its approval URL: long enough that a loaded test
 * machine never turns "answered" into "not answered in time" (that case is a service test).
 */
export const TEST_TAX_INVOICE_INLINE_WAIT_MS = 10_000;

type TestStackOptions = Omit<Parameters<typeof startEphemeralStack>[0], 'serviceOutput'>;

/**
 * The preset of every throwaway stack of the tests (the shared one and those of single files): an
 * embedded database that dies with it, the services' output only with STACK_LOGS, and the test
 * timings of the reconciler and the outbox, which `options.serviceEnv` may override.
 */
export async function startTestStack(options: TestStackOptions = {}): Promise<RunningStack> {
  // Imported when a stack boots, not with this module: the global setups of the faults tier's
  // own stacks load this at the start of the run, in the vitest process that then hands the
  // first tiers' workers their modules, and the orchestrator brings both subgraphs with it.
  const { startEphemeralStack } = await import('@campaign/stack');
  return startEphemeralStack({
    durableDatabase: false,
    ...options,
    serviceOutput: process.env['STACK_LOGS'] ? 'inherit' : 'ignore',
    serviceEnv: {
      LENS_RECONCILE_INTERVAL_MS: String(TEST_RECONCILE_INTERVAL_MS),
      ...TEST_OUTBOX_ENV,
      ...options.serviceEnv,
    },
  });
}

type BootKey = {
  [K in keyof ProvidedContext]: ProvidedContext[K] extends string ? K : never;
}[keyof ProvidedContext];

/**
 * A global setup's whole body: start `boot` in the background (`bootInBackground`), tell the
 * tests where it answers under `key` (they `awaitBoot` it), and stop it at the end of the run.
 */
export async function provideBoot<T>(
  project: TestProject,
  key: BootKey,
  boot: () => Promise<Boot<T>>,
  timing?: BootTiming,
): Promise<() => Promise<void>> {
  const booting = await bootInBackground(boot, timing);
  project.provide(key, booting.url);
  return () => booting.stop();
}

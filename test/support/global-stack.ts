import type { TestProject } from 'vitest/node';
import { startEphemeralStack } from '@campaign/stack';
import { bootInBackground } from './background-boot.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Where the shared stack's URLs are answered once it is up (`awaitBoot`). */
    stackBoot: string;
  }
}

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

/**
 * One real stack for all whole-stack tests: embedded PostgreSQL in a temporary folder, the
 * simulated upstream, both subgraphs, the gateway and the REST adapter, on free ports. It boots
 * while the unit and service tiers run (`bootInBackground`).
 */
export default async function setup(project: TestProject) {
  const boot = await bootInBackground(async () => {
    const stack = await startEphemeralStack({
      durableDatabase: false,
      serviceOutput: process.env['STACK_LOGS'] ? 'inherit' : 'ignore',
      serviceEnv: {
        LENS_SYNC_BUDGET_MS: String(TEST_SYNC_BUDGET_MS),
        LENS_RECONCILE_INTERVAL_MS: String(TEST_RECONCILE_INTERVAL_MS),
        ...TEST_OUTBOX_ENV,
        TAX_INVOICE_INLINE_WAIT_MS: String(TEST_TAX_INVOICE_INLINE_WAIT_MS),
        // Overdue invoices are found within a second (issue 23): tests wait for facts, not hours.
        INVOICE_OVERDUE_SWEEP_SECONDS: '1',
      },
      upstreamSlowDelayMs: TEST_SLOW_DELAY_MS,
      taxInvoiceDelayMs: TEST_TAX_INVOICE_DELAY_MS,
    });
    return { value: stack.urls, stop: () => stack.stop() };
  });
  project.provide('stackBoot', boot.url);
  return () => boot.stop();
}

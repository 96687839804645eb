import type { TestProject } from 'vitest/node';
import {
  provideBoot,
  TEST_SLOW_DELAY_MS,
  TEST_SYNC_BUDGET_MS,
  TEST_TAX_INVOICE_DELAY_MS,
  TEST_TAX_INVOICE_INLINE_WAIT_MS,
  startTestStack,
} from './test-stack.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Where the shared stack's URLs are answered once it is up (`awaitBoot`). */
    stackBoot: string;
  }
}

/**
 * One real stack for all whole-stack tests: embedded PostgreSQL in a temporary folder, the
 * simulated upstream, both subgraphs, the gateway and the REST adapter, on free ports. It boots
 * while the unit and service tiers run (`bootInBackground`).
 */
export default function setup(project: TestProject) {
  return provideBoot(project, 'stackBoot', async () => {
    const stack = await startTestStack({
      serviceEnv: {
        LENS_SYNC_BUDGET_MS: String(TEST_SYNC_BUDGET_MS),
        TAX_INVOICE_INLINE_WAIT_MS: String(TEST_TAX_INVOICE_INLINE_WAIT_MS),
        // Overdue invoices are found within a second (issue 23): tests wait for facts, not hours.
        INVOICE_OVERDUE_SWEEP_SECONDS: '1',
      },
      upstreamSlowDelayMs: TEST_SLOW_DELAY_MS,
      taxInvoiceDelayMs: TEST_TAX_INVOICE_DELAY_MS,
    });
    return { value: stack.urls, stop: () => stack.stop() };
  });
}

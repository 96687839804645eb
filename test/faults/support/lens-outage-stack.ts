import type { TestProject } from 'vitest/node';
import type { StackUrls } from '@campaign/stack';
import { startControlServer } from '../../support/control-server.js';
import { provideBoot, startTestStack, TEST_SYNC_BUDGET_MS } from '../../support/test-stack.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Where the lens-outage stack (`LensOutageStack`) is answered once it is up (`awaitBoot`). */
    lensOutageBoot: string;
  }
}

/** Fewer workers than the test's slow operations in flight: every worker holds a job. */
export const WORKERS = 3;
export const SLOW_DELAY_MS = 2_500;

export interface LensOutageStack {
  urls: StackUrls;
  /** `POST {control}/database/stop` and `/database/start`; null without an embedded database. */
  control: string | null;
}

/**
 * The stack of its own of `test/faults/lens-database-outage.test.ts` (the shared stacks must not
 * lose their database under the other files). Provided by the faults tier's global setup and
 * booted when the file first asks for it (`whenAsked`: at start it held the first tiers back
 * longer than it saved the faults tier); its database lives in this process, so the test stops
 * and starts it through a small control server on loopback, as the faults stack's tests do.
 */
export default function setup(project: TestProject) {
  return provideBoot<LensOutageStack>(
    project,
    'lensOutageBoot',
    async () => {
      const stack = await startTestStack({
        serviceEnv: {
          LENS_SYNC_BUDGET_MS: String(TEST_SYNC_BUDGET_MS),
          LENS_WORKER_CONCURRENCY: String(WORKERS),
          // A short lease, so operations whose settlement was lost reach the reconciler quickly.
          LENS_LEASE_MS: '5000',
        },
        upstreamSlowDelayMs: SLOW_DELAY_MS,
      });
      const database = stack.database;
      const control = await startControlServer(async (request) => {
        const action = /^\/database\/(stop|start)$/.exec(request.url ?? '')?.[1] as
          'stop' | 'start' | undefined;
        if (!database || !action || request.method !== 'POST') return [404];
        await database[action]();
        return [200];
      });
      return {
        value: { urls: stack.urls, control: database ? control.url : null },
        stop: async () => {
          await control.close();
          await database?.start().catch(() => undefined); // a failed test may leave it stopped
          await stack.stop();
        },
      };
    },
    { whenAsked: true },
  );
}

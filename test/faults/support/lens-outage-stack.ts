import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestProject } from 'vitest/node';
import { startEphemeralStack, type StackUrls } from '@campaign/stack';
import { bootInBackground } from '../../support/background-boot.js';
import { TEST_RECONCILE_INTERVAL_MS, TEST_SYNC_BUDGET_MS } from '../../support/global-stack.js';

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
 * lose their database under the other files). Booted by the faults tier's global setup while the
 * first tiers run (issue 22); its database lives in this process, so the test stops and starts it
 * through a small control server on loopback, as the faults stack's tests do.
 */
export default async function setup(project: TestProject) {
  const boot = await bootInBackground<LensOutageStack>(async () => {
    const stack = await startEphemeralStack({
      durableDatabase: false,
      serviceOutput: process.env['STACK_LOGS'] ? 'inherit' : 'ignore',
      serviceEnv: {
        LENS_SYNC_BUDGET_MS: String(TEST_SYNC_BUDGET_MS),
        LENS_RECONCILE_INTERVAL_MS: String(TEST_RECONCILE_INTERVAL_MS),
        LENS_WORKER_CONCURRENCY: String(WORKERS),
        // A short lease, so operations whose settlement was lost reach the reconciler quickly.
        LENS_LEASE_MS: '5000',
      },
      upstreamSlowDelayMs: SLOW_DELAY_MS,
    });
    const database = stack.database;
    const control = createServer((request, response) => {
      const action = /^\/database\/(stop|start)$/.exec(request.url ?? '')?.[1] as
        'stop' | 'start' | undefined;
      const answer = (status: number, body: unknown) => {
        response.writeHead(status, { 'content-type': 'application/json' });
        response.end(JSON.stringify(body));
      };
      if (!database || !action || request.method !== 'POST') return answer(404, {});
      database[action]().then(
        () => answer(200, {}),
        (error: unknown) => answer(500, { error: String(error) }),
      );
    });
    await new Promise<void>((resolve) => control.listen(0, '127.0.0.1', resolve));
    const { port } = control.address() as AddressInfo;
    return {
      value: { urls: stack.urls, control: database ? `http://127.0.0.1:${port}` : null },
      stop: async () => {
        control.closeAllConnections();
        await new Promise<void>((resolve) => control.close(() => resolve()));
        await database?.start().catch(() => undefined); // a failed test may leave it stopped
        await stack.stop();
      },
    };
  });
  project.provide('lensOutageBoot', boot.url);
  return () => boot.stop();
}

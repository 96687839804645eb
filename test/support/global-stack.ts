import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { loadStackConfig } from '@campaign/stack/config';
import { startStack, type StackUrls } from '@campaign/stack/stack';
import { freePort } from './free-port.js';

declare module 'vitest' {
  export interface ProvidedContext {
    stack: StackUrls;
  }
}

/** Test timings: short enough for a quick suite, with slow_ still well past the budget. */
export const TEST_SYNC_BUDGET_MS = 1000;
export const TEST_SLOW_DELAY_MS = 2500;

/**
 * One real stack for all whole-stack tests: embedded PostgreSQL in a temporary folder, the
 * simulated upstream, both subgraphs, the gateway and the REST adapter, on free ports.
 */
export default async function setup(project: TestProject) {
  const dataDir = await mkdtemp(join(tmpdir(), 'campaign-stack-'));
  await chmod(dataDir, 0o755);
  const [pg, rest, gateway, lens, settlement, providers] = await Promise.all(
    Array.from({ length: 6 }, freePort),
  );
  const config = loadStackConfig({
    DATA_DIR: dataDir,
    EMBEDDED_PG_PORT: String(pg),
    REST_PORT: String(rest),
    GATEWAY_PORT: String(gateway),
    LENS_PORT: String(lens),
    SETTLEMENT_PORT: String(settlement),
    PROVIDERS_BASE_PORT: String(providers),
    LOG_LEVEL: 'warn',
  });
  const stack = await startStack({
    config,
    log: () => undefined,
    serviceOutput: process.env['STACK_LOGS'] ? 'inherit' : 'ignore',
    serviceEnv: { LENS_SYNC_BUDGET_MS: String(TEST_SYNC_BUDGET_MS) },
    upstreamSlowDelayMs: TEST_SLOW_DELAY_MS,
  });
  project.provide('stack', stack.urls);
  return async () => {
    await stack.stop();
    await rm(dataDir, { recursive: true, force: true });
  };
}

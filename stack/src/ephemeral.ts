import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadStackConfig } from './config.js';
import { freeStackPorts, releasePorts } from './free-port.js';
import { startStack, type RunningStack, type StackOptions } from './stack.js';

/**
 * A whole stack on free ports with its own embedded PostgreSQL in a temporary folder, removed
 * when stopped: what the whole-stack tests and the benchmark run against.
 */
export async function startEphemeralStack(
  options: Omit<StackOptions, 'config' | 'log'> & { log?: (line: string) => void },
): Promise<RunningStack> {
  const dataDir = await mkdtemp(join(tmpdir(), 'campaign-stack-'));
  // The database runs as `nobody` when we are root: it must be able to enter the folder.
  await chmod(dataDir, 0o755);
  const ports = await freeStackPorts();
  const config = loadStackConfig({
    DATA_DIR: dataDir,
    ...ports,
    LOG_LEVEL: 'warn',
  });
  let stack: RunningStack;
  try {
    stack = await startStack({ ...options, config, log: options.log ?? (() => undefined) });
  } catch (error) {
    releasePorts(Object.values(ports));
    throw error;
  }
  return {
    urls: stack.urls,
    database: stack.database,
    services: stack.services,
    ...(stack.replicas ? { replicas: stack.replicas } : {}),
    stop: async () => {
      await stack.stop();
      releasePorts(Object.values(ports));
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

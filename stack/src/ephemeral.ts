import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadStackConfig } from './config.js';
import { freeStackPorts } from './free-port.js';
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
  const config = loadStackConfig({
    DATA_DIR: dataDir,
    ...(await freeStackPorts()),
    // Only the base port is known to be free; the other simulators take any free port (0).
    MAIL_SIM_SMTP_PORT: '0',
    MAIL_SIM_HTTP_PORT: '0',
    CHAT_SIM_PORT: '0',
    TAX_INVOICE_SIM_PORT: '0',
    TAX_AUTHORITY_SIM_PORT: '0',
    LOG_LEVEL: 'warn',
  });
  const stack = await startStack({ ...options, config, log: options.log ?? (() => undefined) });
  return {
    urls: stack.urls,
    database: stack.database,
    services: stack.services,
    ...(stack.replicas ? { replicas: stack.replicas } : {}),
    stop: async () => {
      await stack.stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

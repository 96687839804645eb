import { startService, type ServiceProcess } from '@campaign/stack';
import { stack } from './clients.js';

/** A service process started from `main` with `env`, its output dropped; the caller stops it. */
const startQuiet = (name: string, main: string, env: Record<string, string>) =>
  startService({ name, main, env: { LOG_LEVEL: 'warn', ...env } }, 'ignore');

/**
 * One more lens subgraph process on `port`, beside the shared stack's lens: the same databases
 * and upstream simulator, with `env` for what the test varies (a deployment setting, a short
 * lease). Its output is dropped; the caller stops it.
 */
export function startLensBeside(
  name: string,
  port: number,
  env: Record<string, string>,
): Promise<ServiceProcess> {
  return startQuiet(name, 'subgraphs/lens/src/main.ts', {
    LENS_PORT: String(port),
    LENS_DATABASE_URL: stack().lensDatabase,
    LENS_UPSTREAM_URL: stack().upstream,
    ...env,
  });
}

/**
 * One more REST adapter process on `port`, in front of the shared stack's gateway unless `env`
 * names another GATEWAY_URL. Its output is dropped; the caller stops it.
 */
export function startRestBeside(
  name: string,
  port: number,
  env: Record<string, string>,
): Promise<ServiceProcess> {
  return startQuiet(name, 'rest-adapter/src/main.ts', {
    REST_PORT: String(port),
    GATEWAY_URL: stack().gateway,
    ...env,
  });
}

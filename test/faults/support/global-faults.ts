import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import {
  startMailSink,
  startTaxInvoiceSimulator,
  startTeamChatSimulator,
} from '@campaign/providers';
import { freeStackPorts, loadStackConfig, startStack } from '@campaign/stack';
import {
  TEST_OUTBOX_ENV,
  TEST_RECONCILE_INTERVAL_MS,
  TEST_TAX_INVOICE_DELAY_MS,
  TEST_TAX_INVOICE_INLINE_WAIT_MS,
  provideBoot,
} from '../../support/test-stack.js';
import { startControlServer, type ControlAnswer } from '../../support/control-server.js';
import { startOutageProxy, type OutageProxy } from './proxy.js';
import type { FaultStack, OutsideSystem } from './fault-stack.js';
import type { Boot } from '../../support/background-boot.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Where the faults stack (`FaultStack`) is answered once it is up (`awaitBoot`). */
    faultsBoot: string;
  }
}

/**
 * A longer sync budget than the shared stack's, so a test can see every inline call started and
 * kill lens before any of them is answered; slow_ reads still outlast it (202).
 */
export const FAULTS_SYNC_BUDGET_MS = 2500;
export const FAULTS_SLOW_DELAY_MS = 4000;
/** A lease this short sends the operations of a killed lens process to the reconciler quickly. */
export const FAULTS_LEASE_MS = 3000;

/**
 * One stack for the whole `faults` project (its files run one after another): two full sets of
 * services on one embedded PostgreSQL, and the mail sink, team chat and tax-invoice provider
 * behind TCP proxies the tests switch off and on. The database, the proxies and the services
 * live in this process: tests drive them through a small control server on loopback. It boots
 * while the earlier tiers run (`bootInBackground`).
 */
export default function setup(project: TestProject) {
  return provideBoot(project, 'faultsBoot', bootFaultStack);
}

async function bootFaultStack(): Promise<Boot<FaultStack>> {
  const host = '127.0.0.1';
  const dataDir = await mkdtemp(join(tmpdir(), 'campaign-faults-'));
  await chmod(dataDir, 0o755); // the database runs as nobody when we are root
  const ports = await freeStackPorts();
  const rest = ports.REST_PORT;
  // The services' logs, for a failing test to quote (STACK_LOGS=1 shows them as they come).
  const serviceLog = join(dataDir, 'services.log');
  const sink = await startMailSink({ host, smtpPort: 0, httpPort: 0 });
  const chat = await startTeamChatSimulator({ host, port: 0 });
  const taxInvoice = await startTaxInvoiceSimulator({
    host,
    port: 0,
    webhookUrl: `http://${host}:${rest}/api/webhooks/tax-invoice`,
    delayMs: TEST_TAX_INVOICE_DELAY_MS,
  });
  const proxies: Record<OutsideSystem, OutageProxy> = {
    mail: await startOutageProxy(sink.smtp),
    chat: await startOutageProxy({ host, port: Number(new URL(chat.url).port) }),
    taxInvoice: await startOutageProxy({ host, port: Number(new URL(taxInvoice.url).port) }),
  };
  const config = loadStackConfig({
    DATA_DIR: dataDir,
    ...ports,
    TAX_AUTHORITY_SIM_PORT: '0',
    SMTP_HOST: host,
    TEAM_CHAT_WEBHOOK_URL: `http://${host}:${proxies.chat.port}/webhook`,
    TAX_INVOICE_PROVIDER_URL: `http://${host}:${proxies.taxInvoice.port}`,
    LOG_LEVEL: 'warn',
  });
  const log: string[] = [];
  const closeOutside = async () => {
    for (const proxy of Object.values(proxies)) await proxy.close();
    await Promise.all([sink.close(), chat.close(), taxInvoice.close()]);
    await rm(dataDir, { recursive: true, force: true });
  };
  const starting = startStack({
    config,
    log: (line) => log.push(line),
    durableDatabase: false,
    serviceOutput: process.env['STACK_LOGS'] ? 'inherit' : { file: serviceLog },
    serviceEnv: {
      SMTP_PORT: String(proxies.mail.port),
      LENS_SYNC_BUDGET_MS: String(FAULTS_SYNC_BUDGET_MS),
      LENS_RECONCILE_INTERVAL_MS: String(TEST_RECONCILE_INTERVAL_MS),
      LENS_LEASE_MS: String(FAULTS_LEASE_MS),
      ...TEST_OUTBOX_ENV,
      // Outages here last seconds: a message must outlive them, not die after four tries.
      OUTBOX_MAX_ATTEMPTS: '30',
      OUTBOX_RETRY_MAX_MS: '1000',
      // Slow-SMTP test: the server answers after 20 s, and the mailer waits for it.
      SMTP_TIMEOUT_MS: '30000',
      // A delivery whose SENT was lost in a database outage is sent again once its lease runs
      // out: a lease just past the mailer's timeout (not the default 2 min) and a frequent sweep
      // close that window while the outage test still watches, so it counts the second copy.
      OUTBOX_LEASE_MS: '40000',
      OUTBOX_SWEEP_INTERVAL_MS: '2000',
      TAX_INVOICE_INLINE_WAIT_MS: String(TEST_TAX_INVOICE_INLINE_WAIT_MS),
      // A load balancer on loopback: tests give each client its own address (X-Forwarded-For).
      REST_TRUST_PROXY: '127.0.0.1',
    },
    upstreamSlowDelayMs: FAULTS_SLOW_DELAY_MS,
    // A second full set, and a third (gateway and adapter only) on the Hive engine, its planner
    // chosen by FAULTS_HIVE_PLANNER (issue 27: the engine tests on the Rust planner too).
    replicaSets: [
      {},
      {
        env: {
          GATEWAY_ENGINE: 'hive',
          GATEWAY_QUERY_PLANNER: process.env['FAULTS_HIVE_PLANNER'] ?? 'javascript',
        },
        subgraphs: false,
      },
    ],
  });
  // A boot that fails no longer stops vitest: leave no simulator holding the process open.
  const stack = await starting.catch(async (error: unknown) => {
    await closeOutside();
    throw error;
  });

  // Second copies a check already accepted in a lost-acknowledgement window: they stay in the
  // sinks for the whole run, so later checks (other files) judge only copies beyond these.
  const acceptedCopies = { email: 0, chat: 0 };
  const control = await startControlServer(async (request): Promise<ControlAnswer> => {
    const [, what, name, action] = (request.url ?? '').split('/');
    if (what === 'services')
      return [
        200,
        stack.services.map((s) => ({ name: s.name, pid: s.pid(), restarts: s.restarts() })),
      ];
    if (what === 'log') return [200, log];
    if (what === 'accepted-copies' && request.method === 'GET') return [200, acceptedCopies];
    if (what === 'accepted-copies' && name !== undefined && action !== undefined) {
      Object.assign(acceptedCopies, { email: Number(name), chat: Number(action) });
      return [200, acceptedCopies];
    }
    if (what === 'database' && (name === 'stop' || name === 'start')) {
      await stack.database![name]();
      return [200];
    }
    const proxy = proxies[name as OutsideSystem];
    if (what === 'outage' && proxy && (action === 'down' || action === 'up')) {
      await proxy[action]();
      return [200];
    }
    if (what === 'slowness' && proxy && /^\d+$/.test(action ?? '')) {
      proxy.slow(Number(action));
      return [200];
    }
    return [404, { error: `unknown control ${request.url}` }];
  });

  const value: FaultStack = {
    urls: stack.urls,
    replicas: stack.replicas!.slice(0, 2),
    hive: stack.replicas![2]!,
    control: control.url,
    mailSink: sink.url,
    chat: chat.url,
    taxInvoice: taxInvoice.url,
    serviceLog,
  };
  const stop = async () => {
    await control.close();
    await stack.database?.start().catch(() => undefined);
    await stack.stop();
    await closeOutside();
  };
  return { value, stop };
}

import { startService, type ServiceProcess } from '@campaign/stack';
import { stack } from './clients.js';
import { TEST_OUTBOX_ENV } from './test-stack.js';

/** What runs beside the shared stack: each service's entry point and its settings on `port`. */
const BESIDE = {
  /** A lens subgraph on the shared databases and upstream simulator. */
  lens: {
    main: 'subgraphs/lens/src/main.ts',
    env: (port: number) => ({
      LENS_PORT: String(port),
      LENS_DATABASE_URL: stack().lensDatabase,
      LENS_UPSTREAM_URL: stack().upstream,
    }),
  },
  /**
   * A settlement subgraph on the shared database, sending to the shared stack's simulators (its
   * outbox worker delivers like the shared one's: a replica).
   */
  settlement: {
    main: 'subgraphs/settlement/src/main.ts',
    env: (port: number) => {
      const [smtpHost, smtpPort] = (stack().mailSmtp ?? '').split(':');
      return {
        SETTLEMENT_PORT: String(port),
        SETTLEMENT_DATABASE_URL: stack().settlementDatabase,
        SMTP_HOST: smtpHost ?? '',
        SMTP_PORT: smtpPort ?? '',
        TEAM_CHAT_WEBHOOK_URL: stack().chatWebhook,
        TAX_INVOICE_PROVIDER_URL: stack().taxInvoice,
        TAX_AUTHORITY_URL: stack().taxAuthority,
        ...TEST_OUTBOX_ENV,
      };
    },
  },
  /**
   * A REST adapter (its gateway engine in its own process, issue 27) on the shared subgraphs
   * (unless `env` names other LENS_SUBGRAPH_URL or SETTLEMENT_SUBGRAPH_URL).
   */
  rest: {
    main: 'rest-adapter/src/main.ts',
    env: (port: number) => ({
      REST_PORT: String(port),
      LENS_SUBGRAPH_URL: stack().lens,
      SETTLEMENT_SUBGRAPH_URL: stack().settlement,
    }),
  },
} as const;

/**
 * One more `service` process on `port`, beside the shared stack's, with `env` for what the test
 * varies (a deployment setting, a short lease, another gateway). Its output is dropped; the
 * caller stops it.
 */
export function startBeside(
  service: keyof typeof BESIDE,
  name: string,
  port: number,
  env: Record<string, string>,
): Promise<ServiceProcess> {
  const { main, env: base } = BESIDE[service];
  return startService({ name, main, env: { ...base(port), LOG_LEVEL: 'warn', ...env } }, 'ignore');
}

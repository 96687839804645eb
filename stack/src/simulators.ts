import { createLogger } from '@campaign/platform';
import { startMailSink } from '@campaign/providers';
import { startTaxAuthoritySimulator } from '@campaign/providers';
import { startTaxInvoiceSimulator } from '@campaign/providers';
import { startTeamChatSimulator } from '@campaign/providers';
import type { StackConfig } from './config.js';

/** Where the outside systems of issue 11 are; a sink is null when a real system is configured. */
export interface OutsideSystemUrls {
  /** The mail sink's HTTP API (`GET|DELETE /messages`). */
  mailSink: string | null;
  /** `host:port` of the simulated SMTP server. */
  mailSmtp: string | null;
  /** The chat simulator's base (`GET|DELETE /messages`). */
  chat: string | null;
  /** Where team-chat messages are posted (simulated or real). */
  chatWebhook: string;
  /** The tax-invoice provider's base URL (simulated or real). */
  taxInvoice: string;
  /** The tax authority's base URL (simulated or real). */
  taxAuthority: string;
}

export interface StartedOutsideSystems {
  urls: OutsideSystemUrls;
  /** Environment for the settlement subgraph: where its adapters send. */
  settlementEnv: Record<string, string>;
  /** Environment for every service that sends e-mail (settlement, lens): the SMTP server. */
  mailEnv: Record<string, string>;
  stop(): Promise<void>;
}

/** Offsets from PROVIDERS_BASE_PORT (DESIGN.md section 5; the social upstream is +0). */
const OFFSET = { smtp: 1, chat: 2, taxInvoice: 3, taxAuthority: 4, mailHttp: 5 } as const;
/** The variable that moves each one-port simulator, and its offset. */
const PORT_OFFSET = {
  CHAT_SIM_PORT: OFFSET.chat,
  TAX_INVOICE_SIM_PORT: OFFSET.taxInvoice,
  TAX_AUTHORITY_SIM_PORT: OFFSET.taxAuthority,
} as const;

/**
 * Starts a simulator for each outside system whose real endpoint is not configured: mail sink
 * (SMTP + HTTP API), team chat, tax-invoice provider (calling the REST adapter's webhook) and the
 * tax authority's status service, all on loopback.
 */
export async function startOutsideSystems(options: {
  config: StackConfig;
  restUrl: string;
  /** Simulator logs: the stack's level in a terminal, nothing in tests. */
  quiet: boolean;
  taxInvoiceDelayMs?: number;
}): Promise<StartedOutsideSystems> {
  const { config } = options;
  const host = '127.0.0.1';
  const base = config.PROVIDERS_BASE_PORT;
  const portOf = (own: number | undefined, offset: number) => own ?? base + offset;
  const logger = (name: string) => createLogger(name, options.quiet ? 'silent' : config.LOG_LEVEL);
  const stoppers: (() => Promise<void>)[] = [];
  const stop = async () => {
    for (const stopOne of stoppers.reverse()) await stopOne().catch(() => undefined);
  };
  // A port that is taken names the variable that moves it, rather than a bare EADDRINUSE.
  const started = async <T extends { close(): Promise<void> }>(
    what: string,
    variable: string,
    start: () => Promise<T>,
  ): Promise<T> => {
    try {
      const running = await start();
      stoppers.push(() => running.close());
      return running;
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      const reason = code === 'EADDRINUSE' ? 'its port is in use' : String(error);
      throw new Error(`${what} cannot start: ${reason} (set ${variable} or PROVIDERS_BASE_PORT)`, {
        cause: error,
      });
    }
  };

  /** A one-port simulator on its variable's port (or its offset from the base port). */
  const startedOn = <T extends { close(): Promise<void> }>(
    what: string,
    variable: 'CHAT_SIM_PORT' | 'TAX_INVOICE_SIM_PORT' | 'TAX_AUTHORITY_SIM_PORT',
    start: (port: number) => Promise<T>,
  ) => started(what, variable, () => start(portOf(config[variable], PORT_OFFSET[variable])));

  try {
    const urls: OutsideSystemUrls = {
      mailSink: null,
      mailSmtp: null,
      chat: null,
      chatWebhook: config.TEAM_CHAT_WEBHOOK_URL ?? '',
      taxInvoice: config.TAX_INVOICE_PROVIDER_URL ?? '',
      taxAuthority: config.TAX_AUTHORITY_URL ?? '',
    };
    const settlementEnv: Record<string, string> = {};
    const mailEnv: Record<string, string> = {};
    if (!config.SMTP_HOST) {
      const sink = await started('the mail sink', 'MAIL_SIM_SMTP_PORT/MAIL_SIM_HTTP_PORT', () =>
        startMailSink({
          host,
          smtpPort: portOf(config.MAIL_SIM_SMTP_PORT, OFFSET.smtp),
          httpPort: portOf(config.MAIL_SIM_HTTP_PORT, OFFSET.mailHttp),
          logger: logger('mail-sink'),
        }),
      );
      urls.mailSink = sink.url;
      urls.mailSmtp = `${sink.smtp.host}:${sink.smtp.port}`;
      Object.assign(mailEnv, {
        SMTP_HOST: sink.smtp.host,
        SMTP_PORT: String(sink.smtp.port),
      });
      Object.assign(settlementEnv, mailEnv);
    }
    if (!config.TEAM_CHAT_WEBHOOK_URL) {
      const chat = await startedOn('the team chat simulator', 'CHAT_SIM_PORT', (port) =>
        startTeamChatSimulator({ host, port, logger: logger('team-chat') }),
      );
      urls.chat = chat.url;
      urls.chatWebhook = chat.webhookUrl;
    }
    if (!config.TAX_INVOICE_PROVIDER_URL) {
      const provider = await startedOn(
        'the tax-invoice provider simulator',
        'TAX_INVOICE_SIM_PORT',
        (port) =>
          startTaxInvoiceSimulator({
            host,
            port,
            // The REST adapter's route (added with the webhook handling); until it answers 2xx,
            // deliveries are retried a few times and logged, never fatal.
            webhookUrl: `${options.restUrl}/api/webhooks/tax-invoice`,
            ...(config.TAX_INVOICE_WEBHOOK_SECRET
              ? { webhookSecret: config.TAX_INVOICE_WEBHOOK_SECRET }
              : {}),
            delayMs: options.taxInvoiceDelayMs ?? config.TAX_INVOICE_SIM_DELAY_MS,
            logger: logger('tax-invoice-provider'),
          }),
      );
      urls.taxInvoice = provider.url;
    }
    if (!config.TAX_AUTHORITY_URL) {
      const authority = await startedOn(
        'the tax authority simulator',
        'TAX_AUTHORITY_SIM_PORT',
        (port) => startTaxAuthoritySimulator({ host, port, logger: logger('tax-authority') }),
      );
      urls.taxAuthority = authority.url;
    }
    Object.assign(settlementEnv, {
      TEAM_CHAT_WEBHOOK_URL: urls.chatWebhook,
      TAX_INVOICE_PROVIDER_URL: urls.taxInvoice,
      TAX_AUTHORITY_URL: urls.taxAuthority,
      ...(config.TAX_INVOICE_WEBHOOK_SECRET
        ? { TAX_INVOICE_WEBHOOK_SECRET: config.TAX_INVOICE_WEBHOOK_SECRET }
        : {}),
    });
    return { urls, settlementEnv, mailEnv, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

import type { OutsideSystemsConfig } from './config.js';
import type { TeamChat } from './chat/team-chat.port.js';
import { WebhookTeamChat } from './chat/webhook-team-chat.js';
import { smtpMailerOf } from '@campaign/platform';
import type { SmtpMailer } from './mail/smtp-mailer.js';
import type { BusinessStatusService } from './tax-authority/business-status.port.js';
import { NtsBusinessStatusService } from './tax-authority/nts-business-status.js';
import { HttpTaxInvoiceProvider } from './tax-invoice/http-tax-invoice-provider.js';
import type { TaxInvoiceProvider } from './tax-invoice/tax-invoice.port.js';

/** The four ports with their real adapters, as a service wires them at start. */
export interface OutsideSystems {
  mailer: SmtpMailer;
  teamChat: TeamChat;
  taxInvoiceProvider: TaxInvoiceProvider;
  businessStatus: BusinessStatusService;
  /** What verifies the provider's webhook. */
  taxInvoiceWebhookSecret: string;
  /** Ends pooled SMTP connections. */
  close(): Promise<void>;
}

export function createOutsideSystems(config: OutsideSystemsConfig): OutsideSystems {
  const mailer = smtpMailerOf(config);
  return {
    mailer,
    teamChat: new WebhookTeamChat({
      webhookUrl: config.TEAM_CHAT_WEBHOOK_URL,
      timeoutMs: config.TEAM_CHAT_TIMEOUT_MS,
    }),
    taxInvoiceProvider: new HttpTaxInvoiceProvider({
      baseUrl: config.TAX_INVOICE_PROVIDER_URL,
      ...(config.TAX_INVOICE_PROVIDER_API_KEY
        ? { apiKey: config.TAX_INVOICE_PROVIDER_API_KEY }
        : {}),
      timeoutMs: config.TAX_INVOICE_PROVIDER_TIMEOUT_MS,
    }),
    businessStatus: new NtsBusinessStatusService({
      baseUrl: config.TAX_AUTHORITY_URL,
      ...(config.TAX_AUTHORITY_SERVICE_KEY ? { serviceKey: config.TAX_AUTHORITY_SERVICE_KEY } : {}),
      timeoutMs: config.TAX_AUTHORITY_TIMEOUT_MS,
    }),
    taxInvoiceWebhookSecret: config.TAX_INVOICE_WEBHOOK_SECRET,
    close: () => mailer.close(),
  };
}

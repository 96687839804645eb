import { z } from 'zod';
import { mailerEnv } from '@campaign/platform';
import { webhookSecretVar } from '@campaign/platform';

/**
 * The environment of the outside-system adapters, one zod object per port, to be spread into the
 * settlement subgraph's config schema (`...outsideSystemsEnv.shape`). Defaults are the embedded
 * stack's simulators (PROVIDERS_BASE_PORT 4100 + offset), so a bare `npm start` needs nothing;
 * the stack passes the simulators' actual addresses when it starts them.
 */

const timeoutMs = (fallback: number) =>
  z.coerce.number().int().min(100).max(120_000).default(fallback);
const optionalText = z.string().min(1).optional();

/** The platform's SMTP settings (lens sends e-mail too). */
export { mailerEnv };

export const teamChatEnv = z.object({
  TEAM_CHAT_WEBHOOK_URL: z.url().default('http://127.0.0.1:4102/webhook'),
  TEAM_CHAT_TIMEOUT_MS: timeoutMs(5000),
});

export const taxInvoiceProviderEnv = z.object({
  TAX_INVOICE_PROVIDER_URL: z.url().default('http://127.0.0.1:4103'),
  TAX_INVOICE_PROVIDER_API_KEY: optionalText,
  TAX_INVOICE_PROVIDER_TIMEOUT_MS: timeoutMs(10_000),
  /** Verifies the provider's webhook (`X-Signature`); a published development value by default. */
  TAX_INVOICE_WEBHOOK_SECRET: webhookSecretVar,
});

export const businessStatusEnv = z.object({
  /** The public data portal (`https://api.odcloud.kr`) in production. */
  TAX_AUTHORITY_URL: z.url().default('http://127.0.0.1:4104'),
  /** The portal's service key, in its decoded form. */
  TAX_AUTHORITY_SERVICE_KEY: optionalText,
  TAX_AUTHORITY_TIMEOUT_MS: timeoutMs(5000),
});

export const outsideSystemsEnv = z.object({
  ...mailerEnv.shape,
  ...teamChatEnv.shape,
  ...taxInvoiceProviderEnv.shape,
  ...businessStatusEnv.shape,
});

export type OutsideSystemsConfig = z.infer<typeof outsideSystemsEnv>;

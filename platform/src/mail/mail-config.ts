import { z } from 'zod';
import { booleanVar } from '../config.js';
import { SmtpMailer } from './smtp-mailer.js';

const optionalText = z.string().min(1).optional();

/**
 * The SMTP settings of every service that sends e-mail (settlement, lens), spread into its config
 * schema. Defaults are the embedded stack's mail sink; the stack passes its actual address.
 */
export const mailerEnv = z.object({
  SMTP_HOST: z.string().min(1).default('127.0.0.1'),
  SMTP_PORT: z.coerce.number().int().min(1).max(65535).default(4101),
  /** TLS from the first byte (port 465); otherwise STARTTLS when the server offers it. */
  SMTP_SECURE: booleanVar(false),
  SMTP_USER: optionalText,
  SMTP_PASS: optionalText,
  MAIL_FROM: z.string().min(3).default('Campaign Platform <no-reply@campaign-platform.local>'),
  SMTP_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
});

export type MailerConfig = z.infer<typeof mailerEnv>;

/** The SMTP mailer these settings describe. */
export function smtpMailerOf(config: MailerConfig): SmtpMailer {
  return new SmtpMailer({
    host: config.SMTP_HOST,
    port: config.SMTP_PORT,
    secure: config.SMTP_SECURE,
    ...(config.SMTP_USER ? { user: config.SMTP_USER, pass: config.SMTP_PASS ?? '' } : {}),
    from: config.MAIL_FROM,
    timeoutMs: config.SMTP_TIMEOUT_MS,
  });
}

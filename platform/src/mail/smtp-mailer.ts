import { createRequire } from 'node:module';
import type * as Nodemailer from 'nodemailer';
import { inSpan, SpanKind } from '../trace-context.js';
import {
  MailDeliveryError,
  messageIdFor,
  type Mailer,
  type OutgoingMail,
  type SentMail,
} from './mailer.port.js';

export interface SmtpMailerOptions {
  host: string;
  port: number;
  /** TLS from the first byte (port 465); otherwise STARTTLS is used when the server offers it. */
  secure: boolean;
  user?: string;
  pass?: string;
  /** The From of every message, e.g. `Campaign Platform <no-reply@example.com>`. */
  from: string;
  /** Connection, greeting and socket inactivity limit (default 10 s). */
  timeoutMs?: number;
}

/**
 * nodemailer is required when the first message is sent, not when the platform loads or a mailer
 * is made: the gateway and the REST adapter never send mail, and a subgraph makes its mailer at
 * start but may not send for hours; loaded, nodemailer is about 8 MB of an idle process's RSS
 * (issue 27, docs/benchmarks.md "Issue 27: idle RSS, third pass").
 */
const nodemailer = () => createRequire(import.meta.url)('nodemailer') as typeof Nodemailer;

/** SMTP error codes of nodemailer that no retry can fix (the message itself is wrong). */
const PERMANENT_CODES = new Set(['EENVELOPE', 'EMESSAGE']);

/** nodemailer's SMTP pool (a worker sending a batch reuses connections). */
function pooledTransport(options: SmtpMailerOptions) {
  const timeout = options.timeoutMs ?? 10_000;
  return nodemailer().createTransport({
    pool: true,
    maxConnections: 2,
    host: options.host,
    port: options.port,
    secure: options.secure,
    ...(options.user ? { auth: { user: options.user, pass: options.pass ?? '' } } : {}),
    connectionTimeout: timeout,
    greetingTimeout: timeout,
    socketTimeout: timeout,
  });
}
type PooledTransport = ReturnType<typeof pooledTransport>;

/**
 * The Mailer over SMTP with nodemailer, pooled (a worker sending a batch reuses connections).
 * A 4xx reply, a refused connection or a timeout is retryable; a 5xx reply (unknown mailbox,
 * refused content) and a message nodemailer cannot build are not. A refused login is retryable:
 * the fix is the operator's configuration, and the message should go once it is fixed.
 */
export class SmtpMailer implements Mailer {
  /** The pooled transport, made by the first {@link send}. */
  private transport: PooledTransport | undefined;
  /** The domain of From, for Message-IDs. */
  readonly domain: string;

  constructor(private readonly options: SmtpMailerOptions) {
    this.domain = /@([^>\s]+)>?\s*$/.exec(options.from)?.[1] ?? 'localhost';
  }

  private transporter(): PooledTransport {
    return (this.transport ??= pooledTransport(this.options));
  }

  /** {@link messageIdFor} with this mailer's From domain. */
  messageIdFor(dedupeKey: string): string {
    return messageIdFor(dedupeKey, this.domain);
  }

  async send(mail: OutgoingMail): Promise<SentMail> {
    try {
      // SMTP is not HTTP: its span is made here (issue 26), with the server, never an address.
      const info = await inSpan(
        'smtp send',
        {
          kind: SpanKind.CLIENT,
          attributes: {
            'network.protocol.name': 'smtp',
            'server.address': this.options.host,
            'server.port': this.options.port,
            'email.event': mail.headers?.['X-Event'] ?? '',
          },
        },
        () =>
          this.transporter().sendMail({
            from: this.options.from,
            to: typeof mail.to === 'string' ? mail.to : [...mail.to],
            ...(mail.cc?.length ? { cc: [...mail.cc] } : {}),
            subject: mail.subject,
            text: mail.text,
            ...(mail.html !== undefined ? { html: mail.html } : {}),
            headers: { ...mail.headers },
            messageId: mail.messageId,
          }),
      );
      return {
        messageId: info.messageId,
        accepted: info.accepted.map(addressOf),
        rejected: info.rejected.map(addressOf),
      };
    } catch (error) {
      throw toDeliveryError(error);
    }
  }

  async close(): Promise<void> {
    this.transport?.close();
  }
}

function addressOf(entry: string | { address: string }): string {
  return typeof entry === 'string' ? entry : entry.address;
}

function toDeliveryError(error: unknown): MailDeliveryError {
  const { code, responseCode, message, command } = (error ?? {}) as {
    code?: unknown;
    responseCode?: unknown;
    message?: unknown;
    command?: unknown;
  };
  const reply = typeof responseCode === 'number' ? responseCode : null;
  const text = typeof message === 'string' ? message : String(error);
  if (code === 'EAUTH') return new MailDeliveryError(`SMTP login refused: ${text}`, true, reply);
  if (reply !== null && reply >= 500) return new MailDeliveryError(text, false, reply);
  // Without a reply code, only nodemailer's own refusal (command 'API': no recipients, an invalid
  // address) is final; an envelope step that got no readable reply (a cut connection) is not.
  if (
    typeof code === 'string' &&
    PERMANENT_CODES.has(code) &&
    (reply === null ? command === 'API' : reply >= 500)
  ) {
    return new MailDeliveryError(text, false, reply);
  }
  return new MailDeliveryError(text, true, reply);
}

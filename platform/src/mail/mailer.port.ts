import { createHash } from 'node:crypto';
import { OutsideSystemError } from '../outside-system-error.js';

/**
 * The platform's port to e-mail (settlement's notifications, lens's low-balance alert). The
 * outbox delivery sends each EMAIL row through it; the SMTP adapter
 * (`smtp-mailer.ts`) implements it against any SMTP server, the simulated mail sink included.
 */
export interface Mailer {
  /** Sends one message; throws {@link MailDeliveryError} when the server did not take it. */
  send(mail: OutgoingMail): Promise<SentMail>;
  /** Ends pooled connections (at shutdown). */
  close(): Promise<void>;
}

export interface OutgoingMail {
  /** Bare addresses or `"Name" <address>`. */
  to: string | readonly string[];
  cc?: readonly string[];
  subject: string;
  text: string;
  html?: string;
  /**
   * Extra headers, e.g. `{"X-Event": "PAYMENT_REQUEST_ADVERTISER", "X-Settlement-Id": "SET1"}`
   * (DESIGN.md "Notification e-mails").
   */
  headers?: Readonly<Record<string, string>>;
  /** With angle brackets; derive it with {@link messageIdFor} so a resend keeps it. */
  messageId: string;
}

export interface SentMail {
  messageId: string;
  /** Recipients the server accepted / refused (a partial refusal is not an error). */
  accepted: string[];
  rejected: string[];
}

export class MailDeliveryError extends OutsideSystemError {
  readonly system = 'MAIL' as const;

  constructor(
    message: string,
    retryable: boolean,
    /** The SMTP reply code when the server answered (451, 550, ...). */
    readonly responseCode: number | null,
  ) {
    super(message, retryable);
  }
}

/**
 * The Message-ID of one outbox event (DESIGN.md: derived from the dedupe key, so one event has
 * one Message-ID however often it is sent, and a recipient's mail program can fold duplicates).
 * The key stays readable; a short hash keeps two keys that differ only in dropped characters apart.
 */
export function messageIdFor(dedupeKey: string, domain: string): string {
  const readable = dedupeKey
    .replace(/[^A-Za-z0-9_-]+/g, '.')
    .replace(/^\.+|\.+$/g, '')
    .slice(0, 120);
  const hash = createHash('sha256').update(dedupeKey).digest('hex').slice(0, 10);
  const host = domain.replace(/[^A-Za-z0-9.-]/g, '') || 'localhost';
  return `<${readable ? `${readable}.` : ''}${hash}@${host}>`;
}

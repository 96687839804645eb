import type { Mailer } from '../../../outside/mail/mailer.port.js';
import { messageIdFor } from '../../../outside/mail/mailer.port.js';
import type { ChannelHandler, OutboxRow } from '../channel-handler.js';
import type { EmailEvent } from '../outbox.js';
import { renderHtml, renderText } from './layout.js';
import { PayloadReader, UndeliverableMessageError } from './payload.js';
import { emailTemplates } from './templates.js';

export interface EmailHandlerOptions {
  mailer: Mailer;
  /** The From domain, for Message-IDs (`SmtpMailer.domain`). */
  domain: string;
}

/**
 * The EMAIL channel: one outbox row, one message to the row's recipient (the advertiser's or
 * partner's address, copied into the row when the change was made), with a plain-text and an
 * HTML part, `X-Event` and `X-Settlement-Id`, and a Message-ID derived from the row's dedupe key,
 * so every attempt at one event carries the same Message-ID (DESIGN.md section 5).
 */
export function createEmailHandler(options: EmailHandlerOptions): ChannelHandler {
  return async (row) => {
    const mail = composeEmail(row, options.domain);
    const sent = await options.mailer.send(mail);
    if (sent.accepted.length === 0) {
      throw new UndeliverableMessageError(`the mail server refused ${row.recipient}`);
    }
  };
}

/** The message of one row, as it is sent (exported for tests). */
export function composeEmail(row: OutboxRow, domain: string) {
  if (!isEmailEvent(row.event)) {
    throw new UndeliverableMessageError(`no e-mail template for ${row.event}`);
  }
  const content = emailTemplates[row.event](
    new PayloadReader(row.payload, row.event),
    row.settlementId,
  );
  return {
    to: row.recipient,
    subject: content.subject,
    text: renderText(content),
    html: renderHtml(content),
    headers: {
      'X-Event': row.event,
      ...(row.settlementId ? { 'X-Settlement-Id': row.settlementId } : {}),
    },
    messageId: messageIdFor(row.dedupeKey, domain),
  };
}

function isEmailEvent(event: string): event is EmailEvent {
  return Object.hasOwn(emailTemplates, event);
}

import type { ClaimedRow, DeliveryHandler, Mailer } from '@campaign/platform';
import { messageIdFor } from '@campaign/platform';
import { LOW_BALANCE_EVENT, type LensOutboxChannel } from './low-balance.outbox.js';

/** A row that can never be sent (no template): DEAD at once instead of retried. */
class UndeliverableAlertError extends Error {
  readonly retryable = false;
}

/** The message of one low-balance row (exported for tests). */
export function composeLowBalanceEmail(row: ClaimedRow<LensOutboxChannel>, domain: string) {
  if (row.event !== LOW_BALANCE_EVENT) {
    throw new UndeliverableAlertError(`no e-mail template for ${row.event}`);
  }
  const balance = Number(row.payload['balance']);
  const below = Number(row.payload['below']);
  const text =
    `The credit balance of your lens account ${row.subject} fell to ${balance} credits, below ` +
    `the alert threshold of ${below} you set.\n\nEvery API key and token of the account spends ` +
    'this balance; calls are refused (402 INSUFFICIENT_CREDITS) once it cannot cover them. Top ' +
    'up to keep them working; this alert is sent again after a top-up brings the balance back ' +
    'to the threshold and it falls below it once more.\n';
  return {
    to: row.recipient,
    subject: `Lens credits low: ${balance} left (alert below ${below})`,
    text,
    html: `<p>${text.trim().split('\n\n').join('</p><p>')}</p>`,
    headers: { 'X-Event': LOW_BALANCE_EVENT, 'X-Tenant-Id': row.subject },
    messageId: messageIdFor(row.dedupeKey, domain),
  };
}

/** The EMAIL channel of the lens outbox, through the platform's SMTP mailer. */
export function lowBalanceEmailHandler(
  mailer: Mailer & { readonly domain: string },
): DeliveryHandler<LensOutboxChannel> {
  return async (row) => {
    const sent = await mailer.send(composeLowBalanceEmail(row, mailer.domain));
    if (sent.accepted.length === 0) {
      throw new UndeliverableAlertError(`the mail server refused ${row.recipient}`);
    }
  };
}

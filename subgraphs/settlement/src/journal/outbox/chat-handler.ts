import { chatText, type TeamChat } from '../../outside/chat/team-chat.port.js';
import type { ChannelHandler, OutboxRow } from './channel-handler.js';
import { formatAmount } from './email/format.js';
import { PayloadReader, UndeliverableMessageError } from './email/payload.js';

/**
 * The TEAM_CHAT channel: one thread per settlement (the settlement id), whose first message is
 * the partner's request and whose replies are the status changes, each text opening with
 * `[EVENT]` (DESIGN.md section 5): `[SETTLEMENT_STATUS_CHANGED] A → B` on the first line, who
 * did it and why on the next.
 */
export function createTeamChatHandler(teamChat: TeamChat): ChannelHandler {
  return async (row) => {
    await teamChat.post(composeChatMessage(row));
  };
}

/** The chat message of one row, as it is posted (exported for tests). */
export function composeChatMessage(row: OutboxRow): { thread: string; text: string } {
  const p = new PayloadReader(row.payload, row.event);
  const thread = p.optionalText('thread') ?? row.settlementId;
  if (!thread) throw new UndeliverableMessageError(`${row.event}: no settlement to thread it in`);
  return { thread, text: chatText(row.event, detail(row, p)) };
}

function detail(row: OutboxRow, p: PayloadReader): string {
  const campaign = `campaign "${p.text('campaignTitle')}"`;
  switch (row.event) {
    case 'SETTLEMENT_REQUESTED':
      return (
        `${p.text('partnerName')} (${p.text('partnerEntityType')}) requested settlement ` +
        `${row.settlementId} of ${campaign}, ${p.text('settlementType')}: campaign price ` +
        `${formatAmount(p.text('campaignPrice'))}, payout ${formatAmount(p.text('payoutAmount'))}`
      );
    case 'SETTLEMENT_STATUS_CHANGED': {
      const reason = p.optionalText('reason');
      return (
        `${p.text('fromStatus')} → ${p.text('toStatus')}\n` +
        `${row.settlementId}, ${campaign}: ${p.text('trigger')} by ${p.text('actor')}` +
        (reason ? `; reason: ${reason}` : '')
      );
    }
    case 'INVOICE_OVERDUE':
      return (
        `invoice ${p.text('invoiceNumber')} (${formatAmount(p.text('totalAmount'))}) of ` +
        `${row.settlementId}, ${campaign}, was due ${p.text('dueDate')}: OVERDUE, advertiser ` +
        `${p.text('advertiserName')} reminded`
      );
    case 'TAX_INVOICE_CANCELLED':
      return (
        `tax invoice ${p.text('taxInvoiceNumber')} of invoice ${p.text('invoiceNumber')} ` +
        `(${formatAmount(p.text('totalAmount'))}) annulled by cancellation tax invoice ` +
        `${p.text('cancellationTaxInvoiceNumber')}\n${row.settlementId}, ${campaign}: ` +
        `advertiser ${p.text('advertiserName')} told`
      );
    default: {
      // Alerts (a tax-invoice failure, ...): whatever of these the payload carries.
      const facts = ['kind', 'issuanceKey', 'invoiceNumber', 'failureCode', 'failureMessage']
        .map((key) => [key, p.optionalText(key)] as const)
        .filter(([, value]) => value !== null)
        .map(([key, value]) => `${key}: ${value}`);
      const message = p.optionalText('text') ?? p.optionalText('message');
      return [`${row.settlementId}, ${campaign}`, message, facts.join(', ') || null]
        .filter((part): part is string => Boolean(part))
        .join(' · ');
    }
  }
}

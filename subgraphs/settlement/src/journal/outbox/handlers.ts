import type { OutsideSystems } from '../../outside/systems.js';
import type { ChannelHandler, ChannelHandlers } from './channel-handler.js';
import { createTeamChatHandler } from './chat-handler.js';
import { createEmailHandler } from './email/email-handler.js';

/**
 * The delivery worker's handler per channel: e-mail and team chat here; the tax-invoice
 * provider's requests are the provider integration's (`createProviderRequestHandler` in
 * tax-invoice/provider-requests.ts), passed in by whoever wires the service.
 */
export function createChannelHandlers(
  outside: Pick<OutsideSystems, 'mailer' | 'teamChat'>,
  taxInvoiceProvider: ChannelHandler,
): ChannelHandlers {
  return {
    EMAIL: createEmailHandler({ mailer: outside.mailer, domain: outside.mailer.domain }),
    TEAM_CHAT: createTeamChatHandler(outside.teamChat),
    TAX_INVOICE_PROVIDER: taxInvoiceProvider,
  };
}

import type { MoveTrigger } from '../domain/settlement/settlement-moves.js';
import * as notices from './settlement-notices.js';
import { followCancelledInvoice } from './tax-invoice/annulment.js';
import { TriggerFamily } from './trigger.js';
import { readAction } from './trigger-inputs.js';

/** Cancel (spec 3, S6): allowed from every non-terminal status, for both types. */
export class SettlementCancellation extends TriggerFamily {
  /**
   * → SETTLEMENT_CANCELLED. The invoice and payout that held only this settlement are cancelled
   * with it (never a COMPLETED payout), an open reverse issuance is withdrawn, and the invoice's
   * tax invoice is withdrawn (pending) or annulled (issued) at the provider.
   */
  readonly cancel = this.trigger(
    readAction,
    async (step, { reason }, via: MoveTrigger = 'cancel') => {
      const { invoices, payouts, reverseIssuances } = this.services;
      step.assertMove('SETTLEMENT_CANCELLED', via);
      await step.claim();
      const invoice = await invoices.find(step.tx, step.settlement.advertiserInvoiceId);
      const payout = await payouts.find(step.tx, step.settlement.partnerPayoutId);
      const cancelledInvoice = await invoices.cancelIfOnlyFor(step.tx, invoice, step.id, (id) =>
        step.sharesDocument({ advertiserInvoiceId: id }),
      );
      const provider = await followCancelledInvoice(step, invoices, cancelledInvoice);
      const cancelledPayout = await payouts.cancelIfOnlyFor(step.tx, payout, (id) =>
        step.sharesDocument({ partnerPayoutId: id }),
      );
      const record = await reverseIssuances.cancelOpen(step.tx, step.id, step.now);
      const moved = await step.move('SETTLEMENT_CANCELLED', via, reason, {
        details: {
          cancelledInvoice: cancelledInvoice?.invoiceNumber ?? null,
          cancelledPayout: cancelledPayout?.payoutNumber ?? null,
          cancelledReverseIssuance: record?.issuanceKey ?? null,
        },
      });
      const out = [moved.notice];
      if (record) out.push(notices.reverseCancelRequest(step, record));
      await step.notify([...out, ...provider]);
    },
  );
}

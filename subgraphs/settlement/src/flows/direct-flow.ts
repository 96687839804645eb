import { PlatformError } from '@campaign/schema';
import * as notices from './settlement-notices.js';
import { TriggerFamily } from './trigger.js';
import { readAction } from './trigger-inputs.js';

/**
 * DIRECT_INVOICE after the request (spec 3): the advertiser pays the partner directly, so the
 * platform records the partner's tax invoice and the payment, and has no deposit or payout.
 * Admin and partner run the same triggers.
 */
export class DirectInvoiceFlow extends TriggerFamily {
  /** invoice-issued: invoiceIssuedAt recorded, no move. */
  readonly markInvoiceIssued = this.trigger(readAction, async (step, { reason }) => {
    step.requireType('DIRECT_INVOICE', 'invoice-issued');
    const status = step.settlement.status;
    if (status !== 'SETTLEMENT_PENDING' && status !== 'AWAITING_ADVERTISER_PAYMENT') {
      throw new PlatformError(
        'CONFLICT',
        `Settlement ${step.id} is ${status}; the tax invoice can be marked issued only in ` +
          'SETTLEMENT_PENDING or AWAITING_ADVERTISER_PAYMENT.',
        { currentStatus: status },
      );
    }
    const issuedAt = step.settlement.invoiceIssuedAt;
    if (issuedAt) {
      throw new PlatformError(
        'CONFLICT',
        `The tax invoice of settlement ${step.id} was already marked issued at ` +
          `${issuedAt.toISOString()}.`,
      );
    }
    await step.claim();
    await step.update({ invoiceIssuedAt: step.now });
    await step.audit({
      action: 'INVOICE_ISSUED',
      fromStatus: status,
      toStatus: status,
      reason,
      details: { invoiceIssuedAt: step.now.toISOString() },
    });
    await step.notify([notices.invoiceIssuedAdvertiser(step)]);
  });

  /**
   * invoice-paid: the one exception to the table, AWAITING_ADVERTISER_PAYMENT →
   * SETTLEMENT_COMPLETED at once; the campaign becomes COMPLETED.
   */
  readonly markInvoicePaid = this.trigger(readAction, async (step, { reason }) => {
    step.requireType('DIRECT_INVOICE', 'invoice-paid');
    const moved = await step.move('SETTLEMENT_COMPLETED', 'invoice-paid', reason, {
      fields: { invoicePaidAt: step.now, completedAt: step.now },
    });
    await this.services.campaigns.markCompleted(step.tx, step.campaign.id);
    await step.notify([notices.paymentConfirmedAdvertiser(step, null), moved.notice]);
  });
}

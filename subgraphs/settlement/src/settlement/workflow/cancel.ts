import type { EntityManager } from '@mikro-orm/postgresql';
import type { Principal } from '../../auth/principal.js';
import type { MoveTrigger } from '../settlement-moves.js';
import * as notices from '../settlement-notices.js';
import { withSettlement } from '../settlement-step.js';
import type { Settlement } from '../settlement.entity.js';
import type { WorkflowServices } from './settlement-workflow.js';
import { readAction, type ActionInput } from './trigger-inputs.js';

/** Cancel (spec 3, S6): allowed from every non-terminal status, for both types. */
export class SettlementCancellation {
  constructor(private readonly services: WorkflowServices) {}

  /**
   * → SETTLEMENT_CANCELLED. The invoice and payout that held only this settlement are cancelled
   * with it (never a COMPLETED payout), and an open reverse issuance is withdrawn.
   */
  cancel(
    em: EntityManager,
    actor: Principal,
    id: string,
    input?: ActionInput | null,
    via: MoveTrigger = 'cancel',
  ): Promise<Settlement> {
    const { reason } = readAction(input);
    const { invoices, payouts, reverseIssuances } = this.services;
    return withSettlement(em, this.services.settlements, actor, id, async (step) => {
      const from = step.settlement.status;
      step.assertMove('SETTLEMENT_CANCELLED', via);
      await step.claim();
      await step.update({ status: 'SETTLEMENT_CANCELLED' });
      const invoice = await invoices.find(step.tx, step.settlement.advertiserInvoiceId);
      const payout = await payouts.find(step.tx, step.settlement.partnerPayoutId);
      const cancelledInvoice = await invoices.cancelIfOnlyFor(step.tx, invoice, step.id);
      const cancelledPayout = await payouts.cancelIfOnlyFor(step.tx, payout, step.id);
      const record = await reverseIssuances.cancelOpen(step.tx, step.id, step.now);
      await step.audit({
        action: 'STATUS_CHANGED',
        fromStatus: from,
        toStatus: 'SETTLEMENT_CANCELLED',
        reason,
        details: {
          trigger: via,
          cancelledInvoice: cancelledInvoice?.invoiceNumber ?? null,
          cancelledPayout: cancelledPayout?.payoutNumber ?? null,
          cancelledReverseIssuance: record?.issuanceKey ?? null,
        },
      });
      const out = [notices.statusChanged(step, from, 'SETTLEMENT_CANCELLED', reason, via)];
      if (record) out.push(notices.reverseCancelRequest(step, record));
      await step.notify(out);
    });
  }
}

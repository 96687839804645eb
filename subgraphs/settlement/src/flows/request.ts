import type { MoveTrigger } from '../domain/settlement/settlement-moves.js';
import { requireBusinessNumber } from './reverse-retry.js';
import * as notices from './settlement-notices.js';
import { TriggerFamily } from './trigger.js';
import { readAction } from './trigger-inputs.js';

/** The partner's request (spec 3, both types): the start of every settlement's way to money. */
export class PartnerRequest extends TriggerFamily {
  /**
   * SETTLEMENT_PENDING → AWAITING_ADVERTISER_PAYMENT. Team chat; DIRECT_INVOICE e-mails the
   * advertiser the partner's bank details; a business partner in PLATFORM_SETTLEMENT gets its
   * reverse issuance requested (record PENDING + provider request in the outbox). A business
   * partner without a business number is refused before anything moves (issue 23 item 3).
   */
  readonly request = this.trigger(
    readAction,
    async (step, { reason }, via: MoveTrigger = 'request') => {
      step.assertMove('AWAITING_ADVERTISER_PAYMENT', via);
      requireBusinessNumber(step);
      const moved = await step.move('AWAITING_ADVERTISER_PAYMENT', via, reason, {
        fields: { requestedAt: step.now },
      });
      const out = [notices.settlementRequested(step), moved.notice];
      if (step.settlement.settlementType === 'DIRECT_INVOICE') {
        out.push(notices.directSettlementRequest(step));
      } else if (step.isBusinessPartner) {
        const record = await this.services.reverseIssuances.open(step.tx, step.id, step.now);
        if (record) out.push(await notices.reverseIssueRequest(step, record));
      }
      await step.notify(out);
    },
  );
}

import type { EntityManager } from '@mikro-orm/postgresql';
import type { Principal } from '../../auth/principal.js';
import type { MoveTrigger } from '../settlement-moves.js';
import * as notices from '../settlement-notices.js';
import { withSettlement } from '../settlement-step.js';
import type { Settlement } from '../settlement.entity.js';
import type { WorkflowServices } from './settlement-workflow.js';
import { readAction, type ActionInput } from './trigger-inputs.js';

/** The partner's request (spec 3, both types): the start of every settlement's way to money. */
export class PartnerRequest {
  constructor(private readonly services: WorkflowServices) {}

  /**
   * SETTLEMENT_PENDING → AWAITING_ADVERTISER_PAYMENT. Team chat; DIRECT_INVOICE e-mails the
   * advertiser the partner's bank details; a business partner in PLATFORM_SETTLEMENT gets its
   * reverse issuance requested (record PENDING + provider request in the outbox).
   */
  request(
    em: EntityManager,
    actor: Principal,
    id: string,
    input?: ActionInput | null,
    via: MoveTrigger = 'request',
  ): Promise<Settlement> {
    const { reason } = readAction(input);
    return withSettlement(em, this.services.settlements, actor, id, async (step) => {
      const from = await step.move('AWAITING_ADVERTISER_PAYMENT', via, reason, {
        requestedAt: step.now,
      });
      const out = [
        notices.settlementRequested(step),
        notices.statusChanged(step, from, 'AWAITING_ADVERTISER_PAYMENT', reason, via),
      ];
      if (step.settlement.settlementType === 'DIRECT_INVOICE') {
        out.push(notices.directSettlementRequest(step));
      } else if (step.isBusinessPartner) {
        const record = await this.services.reverseIssuances.open(step.tx, step.id, step.now);
        if (record) out.push(await notices.reverseIssueRequest(step, record));
      }
      await step.notify(out);
    });
  }
}

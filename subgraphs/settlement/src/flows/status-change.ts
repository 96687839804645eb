import type { EntityManager } from '@mikro-orm/postgresql';
import type { Principal } from '../kernel/principal.js';
import { withSettlement } from './settlement-step.js';
import type { SettlementStatus } from '../kernel/settlement-types.js';
import type { Settlement } from '../domain/settlement/settlement.entity.js';
import type { SettlementCancellation } from './cancel.js';
import type { PlatformSettlementFlow } from './platform-flow.js';
import type { PartnerRequest } from './request.js';
import type { WorkflowServices } from './workflow-services.js';

/**
 * PATCH /api/admin/settlements/:id/status: the target status picks the trigger, so a settlement
 * never reaches a status without that trigger's checks and side effects.
 */
export class StatusChange {
  constructor(
    private readonly services: WorkflowServices,
    private readonly triggers: {
      partnerRequest: PartnerRequest;
      platformFlow: PlatformSettlementFlow;
      cancellation: SettlementCancellation;
    },
  ) {}

  changeStatus(
    em: EntityManager,
    actor: Principal,
    id: string,
    input: { status: SettlementStatus; reason?: string | null; adminNotes?: string | null },
  ): Promise<Settlement> {
    const { partnerRequest, platformFlow, cancellation } = this.triggers;
    switch (input.status) {
      case 'AWAITING_ADVERTISER_PAYMENT':
        return partnerRequest.request(em, actor, id, input, 'status');
      case 'ADVERTISER_PAID':
        return platformFlow.confirmAdvertiserPayment(em, actor, id, input);
      case 'PARTNER_PAYOUT_PROCESSING':
        return platformFlow.startPayout(em, actor, id, input, 'status');
      case 'SETTLEMENT_COMPLETED':
        return platformFlow.complete(em, actor, id, input, 'status');
      case 'SETTLEMENT_CANCELLED':
        return cancellation.cancel(em, actor, id, input, 'status');
      default: {
        // SETTLEMENT_PENDING is reached only by a type change; no move leads to it (409).
        const to = input.status;
        return withSettlement(em, this.services.settlements, actor, id, async (step) => {
          step.assertMove(to, 'status');
        });
      }
    }
  }
}

import type { EntityManager } from '@mikro-orm/postgresql';
import { PlatformError } from '@campaign/schema';
import type { Principal } from '../kernel/principal.js';
import { MONEY_WINDOW, whyMoneyMoved } from '../domain/settlement/money-window.js';
import { calculateSettlementAmounts } from '../domain/settlement/settlement-amounts.js';
import { resetToPending } from './reset-to-pending.js';
import { withSettlement } from './settlement-step.js';
import type { SettlementType } from '../kernel/settlement-types.js';
import type { Settlement } from '../domain/settlement/settlement.entity.js';
import { settlementMoney } from '../domain/settlement/settlement.service.js';
import type { WorkflowServices } from './workflow-services.js';
import { readAction } from './trigger-inputs.js';

/** Type change (spec 1 and 3, S5): PLATFORM_SETTLEMENT ⇄ DIRECT_INVOICE while no money moved. */
export class SettlementTypeChange {
  constructor(private readonly services: WorkflowServices) {}

  /**
   * Only in SETTLEMENT_PENDING or AWAITING_ADVERTISER_PAYMENT with no issued advertiser invoice
   * (nor, for DIRECT_INVOICE, an issued tax invoice). Recalculates, resets to SETTLEMENT_PENDING,
   * withdraws a DRAFT invoice and an open reverse issuance; the campaign's type follows.
   */
  changeType(
    em: EntityManager,
    actor: Principal,
    id: string,
    input: { settlementType: SettlementType; reason?: string | null; adminNotes?: string | null },
  ): Promise<Settlement> {
    const { reason, adminNotes } = readAction(input);
    const to = input.settlementType;
    const { invoices, campaigns } = this.services;
    return withSettlement(em, this.services.settlements, actor, id, async (step) => {
      step.withAdminNotes(adminNotes);
      const s = step.settlement;
      if (s.settlementType === to) {
        throw new PlatformError('CONFLICT', `Settlement ${step.id} is already ${to}.`);
      }
      const invoice = await invoices.find(step.tx, s.advertiserInvoiceId);
      const blocked = whyMoneyMoved(s, invoice, invoices);
      if (blocked) {
        throw new PlatformError(
          'SETTLEMENT_TYPE_CHANGE_NOT_ALLOWED',
          `The type of settlement ${step.id} cannot change: ${blocked}. A type change is allowed ` +
            `${MONEY_WINDOW}.`,
          { currentStatus: s.status },
        );
      }
      const amounts = calculateSettlementAmounts({
        campaignPrice: s.campaignPrice,
        settlementType: to,
        partnerEntityType: step.partner.entityType,
        campaignCommissionRate: step.campaign.commissionRate,
        partnerCommissionRate: step.partner.commissionRate,
      });
      await step.claim();
      await campaigns.changeSettlementType(step.tx, step.campaign.id, to);
      await resetToPending(step, this.services, invoice, {
        via: 'type',
        announce: 'always',
        fields: { settlementType: to, ...amounts },
        audit: {
          action: 'TYPE_CHANGED',
          fromSettlementType: s.settlementType,
          toSettlementType: to,
          reason,
          details: { before: settlementMoney(s), after: settlementMoney(amounts) },
        },
      });
      await step.storeAdminNotes();
    });
  }
}

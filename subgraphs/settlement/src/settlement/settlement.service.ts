import type { EntityManager } from '@mikro-orm/postgresql';
import { PlatformError } from '@campaign/schema';
import { AgencyService } from '../agency/agency.service.js';
import { appendAudit } from '../audit/audit.js';
import { inScope, scopeOf } from '../auth/scope.js';
import type { Principal } from '../auth/principal.js';
import type { Campaign } from '../campaign/campaign.entity.js';
import type { Partner } from '../partner/partner.entity.js';
import { formatMoney } from '../money/money.js';
import { calculateSettlementAmounts } from './settlement-amounts.js';
import { nextPrefixedId } from '../numbering/prefixed-id.js';
import { Settlement } from './settlement.entity.js';

export const SETTLEMENT_ID = /^SET[1-9]\d{0,17}$/;

export class SettlementService {
  constructor(private readonly agencies = new AgencyService()) {}

  /** The one settlement of an uploaded campaign, in SETTLEMENT_PENDING with its amounts. */
  async createForCampaign(
    em: EntityManager,
    campaign: Campaign,
    partner: Partner,
    actor: Principal,
  ): Promise<Settlement> {
    const amounts = calculateSettlementAmounts({
      campaignPrice: campaign.price,
      settlementType: campaign.settlementType,
      partnerEntityType: partner.entityType,
      campaignCommissionRate: campaign.commissionRate,
      partnerCommissionRate: partner.commissionRate,
    });
    const settlement = em.create(Settlement, {
      id: await nextPrefixedId(em, 'SET', 'settlement_number_seq'),
      campaignId: campaign.id,
      partnerId: campaign.partnerId,
      agencyId: campaign.agencyId,
      campaignPrice: campaign.price,
      ...amounts,
      status: 'SETTLEMENT_PENDING',
      settlementType: campaign.settlementType,
      advertiserInvoiceId: null,
      partnerPayoutId: null,
      invoiceIssuedAt: null,
      invoicePaidAt: null,
      partnerInvoiceReceivedAt: null,
      bankName: partner.bankName,
      accountNumber: partner.accountNumber,
      accountHolder: partner.accountHolder,
      requestedAt: null,
      processedAt: null,
      completedAt: null,
      adminNotes: null,
    } as never);
    await em.flush();
    await appendAudit(em, {
      settlementId: settlement.id,
      action: 'CREATED',
      actor,
      toStatus: 'SETTLEMENT_PENDING',
      toSettlementType: settlement.settlementType,
      details: {
        campaignId: campaign.id,
        campaignPrice: formatMoney(settlement.campaignPrice),
        commissionRate: settlement.commissionRate.toFixed(2),
        commissionAmount: formatMoney(settlement.commissionAmount),
        settlementAmount: formatMoney(settlement.settlementAmount),
        withholdingTaxRate: settlement.withholdingTaxRate.toFixed(2),
        withholdingTaxAmount: formatMoney(settlement.withholdingTaxAmount),
        payoutAmount: formatMoney(settlement.payoutAmount),
      },
    });
    return settlement;
  }

  /** A settlement the principal may see; anything else is a 404, never a 403 (S9). */
  async getVisible(
    em: EntityManager,
    principal: Principal,
    id: string,
    options: { refresh?: boolean } = {},
  ): Promise<Settlement> {
    const settlement = SETTLEMENT_ID.test(id)
      ? await em.findOne(Settlement, { id }, { refresh: options.refresh ?? false })
      : null;
    if (!settlement || !(await this.isVisible(em, principal, settlement))) {
      throw new PlatformError('NOT_FOUND', `Settlement ${id} was not found.`);
    }
    return settlement;
  }

  async isVisible(
    em: EntityManager,
    principal: Principal,
    row: { agencyId: string | null; partnerId: string },
  ): Promise<boolean> {
    const scope = scopeOf(principal);
    if (scope.agencyId === null && scope.partnerId === null) return true;
    return inScope(scope, await this.agencies.defaultAgencyId(em), row);
  }
}

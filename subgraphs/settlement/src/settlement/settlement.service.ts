import type { EntityManager } from '@mikro-orm/postgresql';
import { PlatformError } from '@campaign/schema';
import { AgencyService } from '../agency/agency.service.js';
import { inScope, scopeOf } from '../auth/scope.js';
import type { Principal } from '../auth/principal.js';
import type { Campaign } from '../campaign/campaign.entity.js';
import type { Partner } from '../partner/partner.entity.js';
import { calculateSettlementAmounts } from './settlement-amounts.js';
import { nextPrefixedId } from '../numbering/prefixed-id.js';
import { Settlement } from './settlement.entity.js';

export class SettlementService {
  constructor(private readonly agencies = new AgencyService()) {}

  /** The one settlement of an uploaded campaign, in SETTLEMENT_PENDING with its amounts. */
  async createForCampaign(
    em: EntityManager,
    campaign: Campaign,
    partner: Partner,
  ): Promise<Settlement> {
    const amounts = calculateSettlementAmounts({
      campaignPrice: campaign.price,
      settlementType: campaign.settlementType,
      partnerEntityType: partner.entityType,
      campaignCommissionRate: campaign.commissionRate,
      partnerCommissionRate: partner.commissionRate,
    });
    return em.create(Settlement, {
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
  }

  /** A settlement the principal may see; anything else is a 404, never a 403 (S9). */
  async getVisible(em: EntityManager, principal: Principal, id: string): Promise<Settlement> {
    const settlement = /^SET\d{1,18}$/.test(id) ? await em.findOne(Settlement, { id }) : null;
    const defaultAgencyId = await this.agencies.defaultAgencyId(em);
    if (!settlement || !inScope(scopeOf(principal), defaultAgencyId, settlement)) {
      throw new PlatformError('NOT_FOUND', `Settlement ${id} was not found.`);
    }
    return settlement;
  }
}

import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { PlatformError } from '@campaign/schema';
import { Campaign } from '../domain/campaign/campaign.entity.js';
import type { CampaignService } from '../domain/campaign/campaign.service.js';
import { Settlement } from '../domain/settlement/settlement.entity.js';
import type { SettlementService } from '../domain/settlement/settlement.service.js';
import type { Principal } from '../kernel/principal.js';

/** markCampaignUploaded (S13): the campaign's one move that creates its settlement. */
export class CampaignUpload {
  constructor(
    private readonly campaigns: CampaignService,
    private readonly settlements: SettlementService,
  ) {}

  /**
   * Marks a campaign UPLOADED and creates its settlement. Repeating the call, even concurrently,
   * returns the same settlement: the campaign row is locked and the settlement's campaign_id is
   * unique.
   */
  async markUploaded(em: EntityManager, campaignId: string, actor: Principal): Promise<Campaign> {
    await this.campaigns.getVisible(em, actor, campaignId);
    await em.transactional(async (tx) => {
      const campaign = await tx.findOne(
        Campaign,
        { id: campaignId },
        { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true },
      );
      if (!campaign) throw new PlatformError('NOT_FOUND', `Campaign ${campaignId} was not found.`);
      if (await tx.count(Settlement, { campaignId })) return;
      if (campaign.status !== 'CREATED') {
        throw new PlatformError(
          'CONFLICT',
          `Campaign ${campaignId} is ${campaign.status}; only a CREATED campaign can be uploaded.`,
        );
      }
      campaign.status = 'UPLOADED';
      await this.settlements.createForCampaign(
        tx,
        {
          campaignId: campaign.id,
          partnerId: campaign.partnerId,
          agencyId: campaign.agencyId,
          price: campaign.price,
          commissionRate: campaign.commissionRate,
          settlementType: campaign.settlementType,
        },
        actor,
      );
      await tx.flush();
    });
    return em.findOneOrFail(Campaign, { id: campaignId }, { refresh: true });
  }
}

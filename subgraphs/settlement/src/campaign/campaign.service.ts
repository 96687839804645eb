import type { EntityManager } from '@mikro-orm/postgresql';
import { PlatformError } from '@campaign/schema';
import { Advertiser } from '../advertiser/advertiser.entity.js';
import { Agency } from '../agency/agency.entity.js';
import { AgencyService } from '../agency/agency.service.js';
import type { Principal } from '../auth/principal.js';
import { inScope, scopeOf } from '../auth/scope.js';
import { parseMoney } from '../money/money.js';
import { parseRate } from '../money/rate.js';
import { Partner } from '../partner/partner.entity.js';
import { requireText } from '../partner/text-rules.js';
import { isSettlementType } from '../settlement/settlement-types.js';
import { Settlement } from '../settlement/settlement.entity.js';
import { SettlementService } from '../settlement/settlement.service.js';
import { nextPrefixedId } from '../numbering/prefixed-id.js';
import { Campaign } from './campaign.entity.js';
import type { CreateCampaignInput } from './campaign.inputs.js';

export class CampaignService {
  constructor(
    private readonly settlements = new SettlementService(),
    private readonly agencies = new AgencyService(),
  ) {}

  /** A campaign the admin may see: an agency admin sees its agency's only (S9); else 404. */
  async getVisible(em: EntityManager, principal: Principal, id: string): Promise<Campaign> {
    const campaign = /^CAM[1-9]\d{0,16}$/.test(id) ? await em.findOne(Campaign, { id }) : null;
    if (!campaign || !(await this.isVisible(em, principal, campaign))) {
      throw new PlatformError('NOT_FOUND', `Campaign ${id} was not found.`);
    }
    return campaign;
  }

  private async isVisible(em: EntityManager, principal: Principal, campaign: Campaign) {
    const scope = scopeOf(principal);
    if (scope.agencyId === null && scope.partnerId === null) return true;
    return inScope(scope, await this.agencies.defaultAgencyId(em), campaign);
  }

  async create(
    em: EntityManager,
    input: CreateCampaignInput,
    principal?: Principal,
  ): Promise<Campaign> {
    if (principal?.agencyId) {
      // An agency admin creates its own agency's campaigns; no agencyId means its agency.
      const defaultAgencyId = await this.agencies.defaultAgencyId(em);
      const requested =
        input.agencyId === null || input.agencyId === undefined
          ? principal.agencyId
          : String(input.agencyId);
      if (requested !== principal.agencyId) {
        throw new PlatformError(
          'INVALID_REQUEST',
          `An admin of agency ${principal.agencyId} creates campaigns of that agency only.`,
          { field: 'agencyId' },
        );
      }
      input = { ...input, agencyId: requested === defaultAgencyId ? null : Number(requested) };
    }
    const settlementType = input.settlementType ?? 'PLATFORM_SETTLEMENT';
    if (!isSettlementType(settlementType))
      throw new PlatformError('INVALID_REQUEST', 'settlementType is not known.');
    const [partner, advertiser, agency] = await Promise.all([
      em.findOne(Partner, { id: String(input.partnerId) }),
      em.findOne(Advertiser, { id: String(input.advertiserId) }),
      input.agencyId === null || input.agencyId === undefined
        ? null
        : em.findOne(Agency, { id: String(input.agencyId) }),
    ]);
    if (!partner)
      throw new PlatformError('INVALID_REQUEST', `Partner ${input.partnerId} does not exist.`);
    if (!advertiser)
      throw new PlatformError(
        'INVALID_REQUEST',
        `Advertiser ${input.advertiserId} does not exist.`,
      );
    if (input.agencyId !== null && input.agencyId !== undefined && !agency?.isActive) {
      throw new PlatformError(
        'INVALID_REQUEST',
        `Agency ${input.agencyId} does not exist or is inactive.`,
      );
    }
    const campaign = em.create(Campaign, {
      id: await nextPrefixedId(em, 'CAM', 'campaign_number_seq'),
      partnerId: partner.id,
      advertiserId: advertiser.id,
      agencyId: agency && !agency.isDefault ? agency.id : null,
      title: requireText(input.title, 'title'),
      price: parseMoney(input.price, 'price'),
      commissionRate:
        input.commissionRate === null || input.commissionRate === undefined
          ? null
          : parseRate(input.commissionRate, 'commissionRate'),
      settlementType,
      status: 'CREATED',
    } as never);
    await em.flush();
    return em.findOneOrFail(Campaign, { id: campaign.id }, { refresh: true });
  }

  /**
   * Marks a campaign UPLOADED and creates its settlement. Repeating the call, even concurrently,
   * returns the same settlement: the campaign row is locked and the settlement's campaign_id is
   * unique.
   */
  async markUploaded(em: EntityManager, campaignId: string, actor: Principal): Promise<Campaign> {
    await this.getVisible(em, actor, campaignId);
    await em.transactional(async (tx) => {
      const [row] = await tx.execute<{ status: string }[]>(
        `select status from campaign where id = ? for update`,
        [campaignId],
      );
      if (!row) throw new PlatformError('NOT_FOUND', `Campaign ${campaignId} was not found.`);
      const existing = await tx.findOne(Settlement, { campaignId });
      if (existing) return;
      if (row.status !== 'CREATED') {
        throw new PlatformError(
          'CONFLICT',
          `Campaign ${campaignId} is ${row.status}; only a CREATED campaign can be uploaded.`,
        );
      }
      const campaign = await tx.findOneOrFail(Campaign, { id: campaignId });
      const partner = await tx.findOneOrFail(Partner, { id: campaign.partnerId });
      campaign.status = 'UPLOADED';
      await this.settlements.createForCampaign(tx, campaign, partner, actor);
      await tx.flush();
    });
    return em.findOneOrFail(Campaign, { id: campaignId }, { refresh: true });
  }
}

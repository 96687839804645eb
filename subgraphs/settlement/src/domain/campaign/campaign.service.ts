import type { EntityManager } from '@mikro-orm/postgresql';
import type { Decimal } from 'decimal.js';
import { z } from 'zod';
import { PlatformError } from '@campaign/schema';
import { Advertiser } from '../advertiser/advertiser.entity.js';
import type { AgencyService } from '../agency/agency.service.js';
import type { Principal } from '../../kernel/principal.js';
import { inScope, scopeOf } from '../../kernel/scope.js';
import { oneOf, parseInput, text } from '../../kernel/input-rules.js';
import { parseMoney } from '../../kernel/money/money.js';
import { parseRate } from '../../kernel/money/rate.js';
import { CAMPAIGN_ID } from '../../kernel/ids.js';
import { nextPrefixedId, nextPrefixedIds } from '../../kernel/numbering/prefixed-id.repository.js';
import { Partner } from '../partner/partner.entity.js';
import { SettlementType } from '../../kernel/settlement-types.js';
import { Campaign } from './campaign.entity.js';
import type { CreateCampaignInput } from './campaign.inputs.js';

/** Who creates a campaign when no caller is named (the demo seed): every agency is in scope. */
const SYSTEM: Principal = {
  subject: 'system',
  role: 'SUPER_ADMIN',
  agencyId: null,
  partnerId: null,
};

/** One campaign of a quotation line. */
export interface QuotationCampaign {
  partnerId: string;
  title: string;
  price: Decimal;
  commissionRate: Decimal | null;
}

const campaignRules = z.object({
  settlementType: oneOf(SettlementType),
  title: text(200),
});

/** Campaigns (S13); the only writer of `campaign`. */
export class CampaignService {
  constructor(private readonly agencies: AgencyService) {}

  /** A campaign the admin may see: an agency admin sees its agency's only (S9); else 404. */
  async getVisible(em: EntityManager, principal: Principal, id: string): Promise<Campaign> {
    const campaign = CAMPAIGN_ID.pattern.test(id) ? await em.findOne(Campaign, { id }) : null;
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
      // Another agency is outside the caller's scope: not found, as every scoped read answers
      // (docs/settlement.md, Errors; issue 23 item 6), not a 400 that would confirm it exists.
      if (requested !== principal.agencyId) {
        throw new PlatformError('NOT_FOUND', `Agency ${requested} was not found.`, {
          field: 'agencyId',
        });
      }
      input = { ...input, agencyId: requested === defaultAgencyId ? null : Number(requested) };
    }
    const { settlementType, title } = parseInput(campaignRules, {
      settlementType: input.settlementType ?? SettlementType.PLATFORM_SETTLEMENT,
      title: input.title,
    });
    const [partner, advertiser] = await Promise.all([
      em.findOne(Partner, { id: String(input.partnerId) }),
      em.findOne(Advertiser, { id: String(input.advertiserId) }),
    ]);
    if (!partner)
      throw new PlatformError('INVALID_REQUEST', `Partner ${input.partnerId} does not exist.`);
    if (!advertiser)
      throw new PlatformError(
        'INVALID_REQUEST',
        `Advertiser ${input.advertiserId} does not exist.`,
      );
    // Unknown: 400; deactivated: 409 (an inactive agency takes no new campaigns).
    const agency =
      input.agencyId === null || input.agencyId === undefined
        ? null
        : await this.agencies.forNewBusiness(em, principal ?? SYSTEM, String(input.agencyId));
    const campaign = em.create(Campaign, {
      id: await nextPrefixedId(em, CAMPAIGN_ID),
      partnerId: partner.id,
      advertiserId: advertiser.id,
      agencyId: agency ? this.agencies.storedId(agency) : null,
      title,
      price: parseMoney(input.price, 'price'),
      commissionRate:
        input.commissionRate === null || input.commissionRate === undefined
          ? null
          : parseRate(input.commissionRate, 'commissionRate'),
      settlementType,
      status: 'CREATED',
      quotationId: null,
    });
    await em.flush();
    return em.findOneOrFail(Campaign, { id: campaign.id }, { refresh: true });
  }

  /** Writes the fields updateCampaign changed (campaign-change.ts holds the rules). */
  async applyChanges(
    tx: EntityManager,
    id: string,
    values: Pick<Campaign, 'title' | 'price' | 'commissionRate' | 'agencyId'>,
  ): Promise<void> {
    await tx.nativeUpdate(Campaign, { id }, values);
  }

  /**
   * The campaigns of an executed quotation, one per line, in line order, in the caller's
   * transaction: CREATED, PLATFORM_SETTLEMENT, linked to the quotation. Returns their ids.
   */
  async createFromQuotation(
    tx: EntityManager,
    quotation: { id: string; advertiserId: string; agencyId: string | null },
    lines: readonly QuotationCampaign[],
  ): Promise<string[]> {
    const ids = await nextPrefixedIds(tx, CAMPAIGN_ID, lines.length);
    const rows = lines.map((line, i) => ({
      id: ids[i]!,
      partnerId: line.partnerId,
      advertiserId: quotation.advertiserId,
      agencyId: quotation.agencyId,
      title: line.title,
      price: line.price,
      commissionRate: line.commissionRate,
      settlementType: SettlementType.PLATFORM_SETTLEMENT,
      status: 'CREATED' as const,
      quotationId: quotation.id,
    }));
    await tx.insertMany(Campaign, rows);
    return rows.map((row) => row.id);
  }

  /** The campaign's settlement completed (spec 3: "Campaign status becomes COMPLETED"). */
  async markCompleted(tx: EntityManager, campaignId: string): Promise<void> {
    await tx.nativeUpdate(Campaign, { id: campaignId }, { status: 'COMPLETED' });
  }

  /** The campaign follows its settlement's type change (S5). */
  async changeSettlementType(
    tx: EntityManager,
    campaignId: string,
    settlementType: SettlementType,
  ): Promise<void> {
    await tx.nativeUpdate(Campaign, { id: campaignId }, { settlementType });
  }
}

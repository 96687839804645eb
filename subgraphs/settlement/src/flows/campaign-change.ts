import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Decimal } from 'decimal.js';
import { z } from 'zod';
import { PlatformError } from '@campaign/schema';
import type { AgencyService } from '../domain/agency/agency.service.js';
import { appendChange, changedFields } from '../journal/audit/change-audit.js';
import type { Principal } from '../kernel/principal.js';
import { parseInput, text } from '../kernel/input-rules.js';
import { formatMoney, parseMoney } from '../kernel/money/money.js';
import { formatRate, parseRate } from '../kernel/money/rate.js';
import { MONEY_WINDOW, whyMoneyMoved } from '../domain/settlement/money-window.js';
import { calculateSettlementAmounts } from '../domain/settlement/settlement-amounts.js';
import { resetToPending } from './reset-to-pending.js';
import { openStep } from './settlement-step.js';
import { Settlement } from '../domain/settlement/settlement.entity.js';
import { settlementMoney } from '../domain/settlement/settlement.service.js';
import type { WorkflowServices } from './workflow-services.js';
import { Campaign } from '../domain/campaign/campaign.entity.js';
import type { UpdateCampaignInput } from '../domain/campaign/campaign.inputs.js';

/** What a campaign is audited as: the fields updateCampaign may change. */
const campaignSnapshot = (c: {
  title: string;
  price: Decimal;
  commissionRate: Decimal | null;
  agencyId: string | null;
}) => ({
  title: c.title,
  price: formatMoney(c.price),
  commissionRate: c.commissionRate === null ? null : formatRate(c.commissionRate),
  agencyId: c.agencyId,
});

const titleRule = z.object({ title: text(200).optional() });

/** Fields that change the settlement: its amounts or the agency its documents are made for. */
const SETTLEMENT_FIELDS = ['price', 'commissionRate', 'agencyId'];

/**
 * updateCampaign (issue 12): title, price, commission rate, agency. A change of the last three
 * follows through to the settlement in the same transaction, only while no money has moved
 * (the window of S5, one definition in money-window.ts): the settlement takes the agency and the
 * recalculated amounts and, like a type change, goes back to SETTLEMENT_PENDING with a DRAFT
 * advertiser invoice and an open reverse issuance withdrawn (both were made for the old terms).
 */
export class CampaignChange {
  constructor(
    private readonly services: WorkflowServices,
    private readonly agencies: AgencyService,
  ) {}

  async update(
    em: EntityManager,
    actor: Principal,
    id: string,
    input: UpdateCampaignInput,
  ): Promise<Campaign> {
    const given = this.read(input);
    await this.services.campaigns.getVisible(em, actor, id);
    await em.fork({ clear: true }).transactional(async (tx) => {
      // The campaign's lock orders this change with markCampaignUploaded and other updates.
      const campaign = await tx.findOneOrFail(
        Campaign,
        { id },
        { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true },
      );
      const next = { ...campaign, ...given };
      if (input.agencyId !== undefined) {
        const requested = input.agencyId === null ? null : String(input.agencyId);
        const defaultAgencyId = await this.agencies.defaultAgencyId(tx);
        next.agencyId = requested === defaultAgencyId ? null : requested;
        if (next.agencyId !== campaign.agencyId) {
          await this.agencies.forNewBusiness(tx, actor, next.agencyId);
        }
      }
      const change = changedFields(campaignSnapshot(campaign), campaignSnapshot(next));
      if (!change) return;
      const settlement = await tx.findOne(Settlement, { campaignId: id }, { refresh: true });
      if (settlement && Object.keys(change.after).some((key) => SETTLEMENT_FIELDS.includes(key))) {
        await this.followThrough(tx, actor, campaign, settlement, next, change);
      }
      await this.services.campaigns.applyChanges(tx, id, {
        title: next.title,
        price: next.price,
        commissionRate: next.commissionRate,
        agencyId: next.agencyId,
      });
      await appendChange(tx, {
        entityType: 'CAMPAIGN',
        entityId: id,
        action: 'UPDATED',
        actor,
        ...change,
      });
    });
    return em.findOneOrFail(Campaign, { id }, { refresh: true });
  }

  /** The given fields, read before anything is looked at: a bad one is a 400, nothing read. */
  private read(input: UpdateCampaignInput) {
    for (const field of ['title', 'price'] as const) {
      if (input[field] === null) {
        throw new PlatformError(
          'INVALID_REQUEST',
          `${field} cannot be null; leave it out to keep it.`,
          {
            field,
          },
        );
      }
    }
    const { title } = parseInput(titleRule, { title: input.title ?? undefined });
    return {
      ...(title === undefined ? {} : { title }),
      ...(typeof input.price === 'string' ? { price: parseMoney(input.price, 'price') } : {}),
      ...(input.commissionRate === undefined
        ? {}
        : {
            commissionRate:
              input.commissionRate === null
                ? null
                : parseRate(input.commissionRate, 'commissionRate'),
          }),
    };
  }

  /** The settlement follows its campaign (spec 3): agency and amounts, back to SETTLEMENT_PENDING. */
  private async followThrough(
    tx: EntityManager,
    actor: Principal,
    campaign: Campaign,
    settlement: Settlement,
    next: { price: Decimal; commissionRate: Decimal | null; agencyId: string | null },
    change: { before: Record<string, unknown>; after: Record<string, unknown> },
  ): Promise<void> {
    const { invoices } = this.services;
    const invoice = await invoices.find(tx, settlement.advertiserInvoiceId);
    const blocked = whyMoneyMoved(settlement, invoice, invoices);
    if (blocked) {
      throw new PlatformError(
        'CONFLICT',
        `Campaign ${campaign.id} cannot change its ${Object.keys(change.after).join(', ')}: ` +
          `money has moved on settlement ${settlement.id} (${blocked}). Price, commission rate ` +
          `and agency can change ${MONEY_WINDOW}.`,
        { settlementId: settlement.id, currentStatus: settlement.status },
      );
    }
    const step = await openStep(tx, actor, settlement);
    const { partner } = step;
    const amounts = calculateSettlementAmounts({
      campaignPrice: next.price,
      settlementType: settlement.settlementType,
      partnerEntityType: partner.entityType,
      campaignCommissionRate: next.commissionRate,
      partnerCommissionRate: partner.commissionRate,
    });
    await resetToPending(step, this.services, invoice, {
      via: 'campaign',
      announce: 'when-moved',
      fields: { agencyId: next.agencyId, campaignPrice: next.price, ...amounts },
      audit: {
        action: 'CAMPAIGN_CHANGED',
        details: {
          campaignId: campaign.id,
          changed: change,
          before: {
            campaignPrice: formatMoney(settlement.campaignPrice),
            ...settlementMoney(settlement),
          },
          after: { campaignPrice: formatMoney(next.price), ...settlementMoney(amounts) },
        },
      },
    });
  }
}

import DataLoader from 'dataloader';
import type { EntityManager } from '@mikro-orm/postgresql';
import { Campaign } from './campaign/campaign.entity.js';
import type { SettlementLoaders } from './context.js';
import { Partner } from './partner/partner.entity.js';
import { Settlement } from './settlement/settlement.entity.js';

/** One query per relation per request, whatever the length of the list that asks. */
function byKey<T, K extends keyof T & string>(em: EntityManager, entity: new () => T, key: K) {
  return new DataLoader<string, T | null>(async (values) => {
    const rows = await em.find(entity, { [key]: { $in: [...values] } } as never);
    const found = new Map(rows.map((row) => [String(row[key]), row]));
    return values.map((value) => found.get(value) ?? null);
  });
}

export function createLoaders(em: EntityManager): SettlementLoaders {
  return {
    partner: byKey(em, Partner, 'id'),
    campaign: byKey(em, Campaign, 'id'),
    settlementByCampaign: byKey(em, Settlement, 'campaignId'),
  };
}

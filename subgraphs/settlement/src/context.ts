import type DataLoader from 'dataloader';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Principal } from './auth/principal.js';
import type { Campaign } from './campaign/campaign.entity.js';
import type { Partner } from './partner/partner.entity.js';
import type { Settlement } from './settlement/settlement.entity.js';

export interface SettlementLoaders {
  partner: DataLoader<string, Partner | null>;
  campaign: DataLoader<string, Campaign | null>;
  settlementByCampaign: DataLoader<string, Settlement | null>;
}

export interface SettlementContext {
  /** One EntityManager fork per request. */
  em: EntityManager;
  requestId: string;
  /** The verified caller; throws UNAUTHENTICATED on first use when the token is missing or bad. */
  principal: () => Promise<Principal>;
  loaders: SettlementLoaders;
}

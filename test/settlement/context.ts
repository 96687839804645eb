import type { Sql } from '@campaign/stack';
import { afterAll, beforeAll } from 'vitest';
import { database } from './rows.js';
import {
  adminToken,
  createAdvertiser,
  createPartner,
  individualAndCorporate,
  partnerAndAdvertiser,
  partnerToken,
  type EntityType,
} from './support.js';

/** What every settlement test block starts with: a SUPER_ADMIN token and a database client. */
export interface AdminContext {
  admin: string;
  db: Sql;
}

/** With a partner of one type (and its token) and an advertiser. */
export interface CastContext extends AdminContext {
  partner: string;
  partnerId: number;
  advertiserId: number;
  /** The parties of a new campaign: `newSettlement(ctx.admin, ctx.ids)`. */
  ids: { partnerId: number; advertiserId: number };
}

/**
 * The prologue of a settlement test block, as hooks of the calling `describe`: its fields are set
 * before the block's own `beforeAll` runs, and the database client is closed after the block.
 */
export function useAdmin(): AdminContext {
  const ctx = {} as AdminContext;
  beforeAll(async () => {
    [ctx.admin, ctx.db] = await Promise.all([adminToken(), database()]);
  });
  afterAll(() => ctx.db?.end());
  return ctx;
}

/** useAdmin, with a partner of `entityType` (and its token) and an advertiser. */
export function useCast(entityType: EntityType): CastContext {
  const ctx = useAdmin() as CastContext;
  beforeAll(async () => {
    const { partnerId, advertiserId, partner } = await partnerAndAdvertiser(ctx.admin, entityType);
    Object.assign(ctx, { partnerId, advertiserId, partner, ids: { partnerId, advertiserId } });
  });
  return ctx;
}

/** A partner (its id) with its token. */
export type PartnerParty = { id: number; token: string };

/** With an advertiser and one INDIVIDUAL and one CORPORATE_BUSINESS partner. */
export interface TwoPartnersContext extends AdminContext {
  advertiserId: number;
  individual: PartnerParty;
  corporate: PartnerParty;
}

/** useAdmin, with an advertiser and an INDIVIDUAL and a CORPORATE_BUSINESS partner (fields as given). */
export function useTwoPartners(
  individualExtra: Record<string, unknown> = {},
  corporateExtra: Record<string, unknown> = {},
): TwoPartnersContext {
  const ctx = useAdmin() as TwoPartnersContext;
  beforeAll(async () => {
    const [advertiserId, partners] = await Promise.all([
      createAdvertiser(ctx.admin),
      individualAndCorporate(ctx.admin, individualExtra, corporateExtra),
    ]);
    Object.assign(ctx, { advertiserId, ...partners });
  });
  return ctx;
}

/** With an advertiser and a partner of every entity type. */
export interface EveryTypeContext extends AdminContext {
  advertiserId: number;
  partners: Record<EntityType, PartnerParty>;
}

/** useAdmin, with an advertiser and a partner (and its token) of every entity type. */
export function usePartnerOfEveryType(): EveryTypeContext {
  const ctx = useAdmin() as EveryTypeContext;
  beforeAll(async () => {
    const types = ['INDIVIDUAL', 'CORPORATE_BUSINESS', 'INDIVIDUAL_BUSINESS'] as const;
    const [advertiserId, parties] = await Promise.all([
      createAdvertiser(ctx.admin),
      Promise.all(
        types.map(async (type) => {
          const id = await createPartner(ctx.admin, type);
          return [type, { id, token: await partnerToken(id) }] as const;
        }),
      ),
    ]);
    ctx.advertiserId = advertiserId;
    ctx.partners = Object.fromEntries(parties) as Record<EntityType, PartnerParty>;
  });
  return ctx;
}

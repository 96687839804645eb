import type { Principal } from '../kernel/principal.js';
import type { Settlement } from '../domain/settlement/settlement.entity.js';
import { DETAIL_RELATIONS } from '../domain/settlement/settlement-detail.repository.js';
import type { Stored } from '../domain/settlement/settlement-reads.repository.js';
import type { SettlementContext, SettlementLoaders } from './context.js';
import type { SettledLoader } from './settled-loader.js';

/**
 * What the relation fields read of a settlement, the entity or its stored row alike. A type, not
 * the class: type-graphql would copy a plain row into a new entity (`new Settlement()` runs
 * MikroORM's property setters) before every field resolver (issue 27).
 */
export type SettlementRefs = Pick<
  Settlement,
  'id' | 'partnerId' | 'campaignId' | 'advertiserInvoiceId' | 'partnerPayoutId'
>;

/** A relation of one settlement: its loader and its key there (null: the field is null). */
interface Relation<V> {
  loader: SettledLoader<V>;
  key: string | null;
}

const relation = <V>(loader: SettledLoader<V>, key: string | null): Relation<V> => ({
  loader,
  key,
});

/**
 * The settlement's fields that show another row, each with its loader and key: the one place
 * saying where a relation comes from, read by the field resolvers (settlement.resolver.ts) and by
 * a page's prefetch ({@link prefetchRelations}). A partner's token sees no advertiser invoice.
 */
export const SETTLEMENT_RELATIONS = {
  partner: (loaders: SettlementLoaders, row: SettlementRefs) =>
    relation(loaders.partner, row.partnerId),
  campaign: (loaders: SettlementLoaders, row: SettlementRefs) =>
    relation(loaders.campaign, row.campaignId),
  advertiserInvoice: (loaders: SettlementLoaders, row: SettlementRefs, principal: Principal) =>
    relation(
      loaders.advertiserInvoice,
      principal.role === 'PARTNER' ? null : row.advertiserInvoiceId,
    ),
  partnerPayout: (loaders: SettlementLoaders, row: SettlementRefs) =>
    relation(loaders.partnerPayout, row.partnerPayoutId),
  reverseIssuance: (loaders: SettlementLoaders, row: SettlementRefs) =>
    relation(loaders.reverseIssuanceBySettlement, row.id),
};

/**
 * The principal a request's read verified before its fields run (a page's prefetch, a detail):
 * a field whose value depends on the role answers at once, not after `ctx.principal()`'s promise,
 * so graphql completes the answer without a promise (SettledLoader's reason).
 */
const verified = new WeakMap<SettlementContext, Principal>();
export const verifiedPrincipal = (ctx: SettlementContext): Principal | undefined =>
  verified.get(ctx);

/** The field's value: null without a key, the row at once when loaded, else its load. */
export const shown = <V>({ loader, key }: Relation<V>): V | null | Promise<V> =>
  key === null ? null : loader.settledOrLoad(key);

/**
 * Loads the relations `selected` of every row of an answer (a page, or one settlement) before
 * graphql completes it, one batched read per relation as the fields would make, so that each
 * field answers at once (SettledLoader) and each row is completed without a promise. Never
 * fails: a read that fails is left to the field, which loads again and fails as before.
 */
export async function prefetchRelations(
  ctx: SettlementContext,
  principal: Principal,
  rows: readonly SettlementRefs[],
  selected: ReadonlySet<string>,
): Promise<void> {
  verified.set(ctx, principal);
  const loads: Promise<unknown>[] = [];
  for (const [field, relationOf] of Object.entries(SETTLEMENT_RELATIONS)) {
    if (!selected.has(field)) continue;
    const keys = new Set<string>();
    let loader: SettledLoader<unknown> | undefined;
    for (const row of rows) {
      const found = relationOf(ctx.loaders, row, principal);
      loader = found.loader;
      if (found.key !== null) keys.add(found.key);
    }
    if (loader && keys.size > 0) loads.push(loader.loadMany([...keys]));
  }
  await Promise.all(loads);
}

/**
 * A settlement's detail (the `settlement` and `partnerSettlement` queries): the row and the
 * relations `selected` in one statement, one snapshot (a provider's result commits a reverse
 * issuance's status and the settlement's received date together; separate reads could show one
 * without the other). Each relation's loader keeps the row read, so its field answers at once.
 */
export async function settlementDetail(
  ctx: SettlementContext,
  principal: Principal,
  id: string,
  selected: ReadonlySet<string>,
): Promise<Stored<Settlement>> {
  verified.set(ctx, principal);
  const relations = DETAIL_RELATIONS.filter((name) => selected.has(name));
  // On the root EntityManager: one prepared statement (and, for a scoped principal, the default
  // agency's), no entity read, so the request needs no fork (issue 27).
  const detail = await ctx.services.queries.detail(ctx.reads, principal, id, relations);
  for (const name of relations) {
    const relationOf: (...args: Parameters<RelationOf>) => Relation<unknown> =
      SETTLEMENT_RELATIONS[name];
    const { loader, key } = relationOf(ctx.loaders, detail.settlement, principal);
    if (key !== null) loader.settle(key, detail.related[name] ?? null);
  }
  return detail.settlement;
}

type RelationOf = (typeof SETTLEMENT_RELATIONS)['advertiserInvoice'];

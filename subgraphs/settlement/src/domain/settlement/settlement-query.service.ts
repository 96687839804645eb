import type { ObjectQuery } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { Decimal } from 'decimal.js';
import type { AgencyService } from '../agency/agency.service.js';
import type { SettlementService } from './settlement.service.js';
import type { Principal } from '../../kernel/principal.js';
import { agencyCondition, scopeConditions, scopeOf } from '../../kernel/scope.js';
import { sumMoney } from '../../kernel/money/money.js';
import { allOf } from '../../kernel/paging.js';
import { encodeCursor, parseListArgs, type ListFilter, type RawListFilter } from './list-args.js';
import type { PartnerSettlementSummary } from './settlement-page.js';
import type { Page } from '../../kernel/paging.js';
import { newestSettlements, type Stored } from './settlement-reads.repository.js';
import type { DetailRelation, SettlementDetail } from './settlement-detail.repository.js';
import { settlementStatuses } from '../../kernel/settlement-types.js';
import { Settlement } from './settlement.entity.js';
import { SUMMED_AMOUNTS, type SummedAmount } from './settlement.repository.js';

/** The list filters as query conditions, in the order a reader checks them. */
async function filterConditions(
  filter: ListFilter,
  defaultAgencyId: () => Promise<string>,
): Promise<ObjectQuery<Settlement>[]> {
  const conditions: ObjectQuery<Settlement>[] = [];
  if (filter.partnerId) conditions.push({ partnerId: filter.partnerId });
  if (filter.agencyId) conditions.push(agencyCondition(filter.agencyId, await defaultAgencyId()));
  if (filter.campaignId) conditions.push({ campaignId: filter.campaignId });
  if (filter.status) conditions.push({ status: filter.status });
  if (filter.from) conditions.push({ createdAt: { $gte: filter.from.at } });
  if (filter.to) {
    conditions.push({
      createdAt: filter.to.inclusive ? { $lte: filter.to.at } : { $lt: filter.to.at },
    });
  }
  return conditions;
}

/** One Decimal per summed amount. */
const amountsBy = (amount: (key: SummedAmount) => Decimal) =>
  Object.fromEntries(SUMMED_AMOUNTS.map((key) => [key, amount(key)])) as Record<
    SummedAmount,
    Decimal
  >;

/**
 * The settlement queries: one settlement, lists and the partner's summary, always inside the
 * caller's scope; answers as stored rows (settlement-reads.repository.ts).
 */
export class SettlementQueryService {
  constructor(
    private readonly agencies: AgencyService,
    private readonly settlements: SettlementService,
  ) {}

  /** One settlement as stored, if the principal may see it (the `settlement` queries). */
  async get(em: EntityManager, principal: Principal, id: string): Promise<Stored<Settlement>> {
    return (await this.detail(em, principal, id, [])).settlement;
  }

  /** As {@link get}, with the rows of `relations` read in the same statement (one snapshot). */
  detail(
    em: EntityManager,
    principal: Principal,
    id: string,
    relations: readonly DetailRelation[],
  ): Promise<SettlementDetail> {
    return this.settlements.getStoredDetail(em, principal, id, relations);
  }

  /** Newest first; the scope always applies, so a cursor carries no authority. */
  async list(
    em: EntityManager,
    principal: Principal,
    filter: RawListFilter | null | undefined,
    cursor: string | null | undefined,
    limit: number | null | undefined,
  ): Promise<Page<Stored<Settlement>>> {
    const args = parseListArgs(filter, cursor, limit);
    const defaultAgencyId = this.defaultAgencyOnce(em);
    const where = allOf<Settlement>([
      ...(await scopeConditions(scopeOf(principal), defaultAgencyId)),
      ...(await filterConditions(args.filter, defaultAgencyId)),
    ]);
    const page = await newestSettlements(em, where, args.after, args.pageSize);
    const last = page.items.at(-1);
    return {
      items: page.items,
      nextCursor: page.more && last ? encodeCursor(last.idNumber) : null,
      total: page.total,
    };
  }

  /** The default agency's id, read on first use and at most once (the scope and a filter). */
  private defaultAgencyOnce(em: EntityManager): () => Promise<string> {
    let read: Promise<string> | undefined;
    return () => (read ??= this.agencies.defaultAgencyId(em));
  }

  /** Counts and sums per status of the caller's settlements (every status, zeros included). */
  async summary(em: EntityManager, principal: Principal): Promise<PartnerSettlementSummary> {
    const scope = await scopeConditions(scopeOf(principal), this.defaultAgencyOnce(em));
    const rows = await em.getRepository(Settlement).sumsByStatus(allOf<Settlement>(scope));
    const byStatus = settlementStatuses.map((status) => {
      const row = rows.find((r) => r.status === status);
      const amounts = amountsBy((key) => new Decimal(row?.[key] ?? 0));
      return { status, count: row ? Number(row.count) : 0, ...amounts };
    });
    return {
      byStatus,
      totalCount: byStatus.reduce((n, s) => n + s.count, 0),
      ...amountsBy((key) => sumMoney(byStatus.map((s) => s[key]))),
    };
  }
}

import type { EntityManager } from '@mikro-orm/postgresql';
import { Decimal } from 'decimal.js';
import { AgencyService } from '../agency/agency.service.js';
import type { Principal } from '../auth/principal.js';
import { scopeCondition, scopeOf } from '../auth/scope.js';
import { sumMoney } from '../money/money.js';
import {
  decodeCursor,
  encodeCursor,
  parseCampaignIdFilter,
  parseDateBound,
  parseIdFilter,
  parseLimit,
} from './list-params.js';
import type { PartnerSettlementSummary, SettlementPage } from './settlement-page.js';
import { settlementStatuses, type SettlementStatus } from './settlement-types.js';
import { Settlement } from './settlement.entity.js';

export interface ListFilter {
  partnerId?: string | null;
  campaignId?: string | null;
  status?: SettlementStatus | null;
  agencyId?: string | null;
  from?: string | null;
  to?: string | null;
}

/** The number of SET<n>: the list's order, newest first. */
const SEQUENCE = `cast(substring(id from 4) as bigint)`;

/** Reads of many settlements: lists and the partner's summary, always inside the caller's scope. */
export class SettlementQueryService {
  constructor(private readonly agencies = new AgencyService()) {}

  async list(
    em: EntityManager,
    principal: Principal,
    filter: ListFilter | null | undefined,
    cursor: string | null | undefined,
    limit: number | null | undefined,
  ): Promise<SettlementPage> {
    const pageSize = parseLimit(limit);
    const after = decodeCursor(cursor);
    const defaultAgencyId = await this.agencies.defaultAgencyId(em);
    const where: string[] = [];
    const params: unknown[] = [];
    const add = (sql: string, ...values: unknown[]) => {
      where.push(sql);
      params.push(...values);
    };
    const scope = scopeCondition(scopeOf(principal), defaultAgencyId);
    add(scope.sql, ...scope.params);
    const partnerId = parseIdFilter(filter?.partnerId, 'partnerId');
    if (partnerId) add('partner_id = ?', partnerId);
    const agencyId = parseIdFilter(filter?.agencyId, 'agencyId');
    if (agencyId) add('coalesce(agency_id, ?) = ?', defaultAgencyId, agencyId);
    const campaignId = parseCampaignIdFilter(filter?.campaignId);
    if (campaignId) add('campaign_id = ?', campaignId);
    if (filter?.status) add('status = ?', filter.status);
    const from = parseDateBound(filter?.from, 'from');
    const to = parseDateBound(filter?.to, 'to');
    if (from) add('created_at >= ?', from.at);
    if (to) add(to.inclusive ? 'created_at <= ?' : 'created_at < ?', to.at);
    const condition = where.join(' and ');

    const [counted] = await em.execute<{ total: number }[]>(
      `select count(*)::int as total from settlement where ${condition}`,
      params,
    );
    const rows = await em.execute<{ id: string; seq: string }[]>(
      `select id, ${SEQUENCE}::text as seq from settlement
       where ${condition} ${after ? `and ${SEQUENCE} < ?` : ''}
       order by ${SEQUENCE} desc limit ?`,
      [...params, ...(after ? [after] : []), pageSize + 1],
    );
    const page = rows.slice(0, pageSize);
    const found = page.length
      ? await em.find(Settlement, { id: { $in: page.map((row) => row.id) } })
      : [];
    const byId = new Map(found.map((s) => [s.id, s]));
    return {
      items: page.map((row) => byId.get(row.id)!).filter(Boolean),
      nextCursor: rows.length > pageSize ? encodeCursor(page.at(-1)!.seq) : null,
      total: Number(counted!.total),
    };
  }

  /** Counts and sums per status of one partner's settlements (every status, zeros included). */
  async partnerSummary(em: EntityManager, partnerId: string): Promise<PartnerSettlementSummary> {
    const rows = await em.execute<
      {
        status: SettlementStatus;
        count: number;
        campaign_price: string;
        settlement_amount: string;
        withholding_tax_amount: string;
        payout_amount: string;
      }[]
    >(
      `select status, count(*)::int as count, sum(campaign_price)::text as campaign_price,
         sum(settlement_amount)::text as settlement_amount,
         sum(withholding_tax_amount)::text as withholding_tax_amount,
         sum(payout_amount)::text as payout_amount
       from settlement where partner_id = ? group by status`,
      [partnerId],
    );
    const byStatus = settlementStatuses.map((status) => {
      const row = rows.find((r) => r.status === status);
      return {
        status,
        count: row ? Number(row.count) : 0,
        campaignPrice: new Decimal(row?.campaign_price ?? 0),
        settlementAmount: new Decimal(row?.settlement_amount ?? 0),
        withholdingTaxAmount: new Decimal(row?.withholding_tax_amount ?? 0),
        payoutAmount: new Decimal(row?.payout_amount ?? 0),
      };
    });
    const total = (
      key: 'campaignPrice' | 'settlementAmount' | 'withholdingTaxAmount' | 'payoutAmount',
    ) => sumMoney(byStatus.map((s) => s[key]));
    return {
      byStatus,
      totalCount: byStatus.reduce((n, s) => n + s.count, 0),
      campaignPrice: total('campaignPrice'),
      settlementAmount: total('settlementAmount'),
      withholdingTaxAmount: total('withholdingTaxAmount'),
      payoutAmount: total('payoutAmount'),
    };
  }
}

import DataLoader from 'dataloader';
import type { FilterQuery, QueryOrderMap } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { changeAuditLoader } from './change-audit.loader.js';
import { SettledLoader } from './settled-loader.js';
import { SettlementAuditEntry } from '../journal/audit/settlement-audit.entity.js';
import { Campaign } from '../domain/campaign/campaign.entity.js';
import type { SettlementLoaders } from './context.js';
import { QuotationLine } from '../domain/quotation/quotation.entity.js';
import {
  INVOICES_BY_ID,
  PARTNERS_BY_ID,
  PAYOUTS_BY_ID,
  REVERSE_ISSUANCES_BY_SETTLEMENT,
  storedRows,
  type KeyedRead,
  type Stored,
} from '../domain/settlement/settlement-reads.repository.js';
import { Settlement } from '../domain/settlement/settlement.entity.js';

/** `key in (values)`: a computed key, which TypeScript types as any string, so named here. */
const whereIn = <T extends object>(key: keyof T & string, values: readonly string[]) =>
  ({ [key]: { $in: [...values] } }) as FilterQuery<T>;

/** One query per relation per request, whatever the length of the list that asks. */
function byKey<T extends object, K extends keyof T & string>(
  em: EntityManager,
  entity: new () => T,
  key: K,
) {
  return new SettledLoader<T | null>(async (values) => {
    const rows = await em.find(entity, whereIn<T>(key, values));
    const found = new Map(rows.map((row) => [String(row[key]), row]));
    return values.map((value) => found.get(value) ?? null);
  });
}

/** Like {@link byKey}, for one-to-many relations: every row whose `key` matches, in `orderBy`. */
function allByKey<T extends object, K extends keyof T & string>(
  em: EntityManager,
  entity: new () => T,
  key: K,
  orderBy: QueryOrderMap<T>,
) {
  return new DataLoader<string, T[]>(async (values) => {
    const rows = await em.find(entity, whereIn<T>(key, values), { orderBy });
    const groups = new Map<string, T[]>();
    for (const row of rows) {
      const group = groups.get(String(row[key])) ?? [];
      group.push(row);
      groups.set(String(row[key]), group);
    }
    return values.map((value) => groups.get(value) ?? []);
  });
}

/**
 * {@link byKey} on a prepared statement (settlement-reads.repository.ts), as stored rows: the
 * hot relations, which fields only show.
 */
function preparedByKey<T extends object, K extends keyof T & string>(
  em: EntityManager,
  read: KeyedRead<T>,
  key: K,
) {
  return new SettledLoader<Stored<T> | null>(async (values) => {
    const rows = await storedRows(em, read, [[...values]]);
    const found = new Map(rows.map((row) => [String(row[key]), row]));
    return values.map((value) => found.get(value) ?? null);
  });
}

export function createLoaders(em: EntityManager): SettlementLoaders {
  return {
    partner: preparedByKey(em, PARTNERS_BY_ID, 'id'),
    campaign: byKey(em, Campaign, 'id'),
    settlementByCampaign: byKey(em, Settlement, 'campaignId'),
    advertiserInvoice: preparedByKey(em, INVOICES_BY_ID, 'id'),
    partnerPayout: preparedByKey(em, PAYOUTS_BY_ID, 'id'),
    reverseIssuanceBySettlement: preparedByKey(em, REVERSE_ISSUANCES_BY_SETTLEMENT, 'settlementId'),
    auditBySettlement: allByKey(em, SettlementAuditEntry, 'settlementId', { id: 'asc' }),
    settlementsByInvoice: allByKey(em, Settlement, 'advertiserInvoiceId', { id: 'asc' }),
    settlementsByPayout: allByKey(em, Settlement, 'partnerPayoutId', { id: 'asc' }),
    changeAudit: changeAuditLoader(em),
    quotationLines: allByKey(em, QuotationLine, 'quotationId', { lineNo: 'asc' }),
  };
}

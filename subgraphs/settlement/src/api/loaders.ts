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

/**
 * A request's loaders, each made on first use (issue 27): a detail uses three of the eleven, and
 * the loaders that read entities fork the request's EntityManager only when they are made
 * (`em`, the context's lazy fork). The prepared-statement loaders read on `reads`, the ORM's
 * root EntityManager: stored rows, no identity map, so no fork for them.
 */
class RequestLoaders implements SettlementLoaders {
  #partner?: SettlementLoaders['partner'];
  #campaign?: SettlementLoaders['campaign'];
  #settlementByCampaign?: SettlementLoaders['settlementByCampaign'];
  #advertiserInvoice?: SettlementLoaders['advertiserInvoice'];
  #partnerPayout?: SettlementLoaders['partnerPayout'];
  #reverseIssuanceBySettlement?: SettlementLoaders['reverseIssuanceBySettlement'];
  #auditBySettlement?: SettlementLoaders['auditBySettlement'];
  #settlementsByInvoice?: SettlementLoaders['settlementsByInvoice'];
  #settlementsByPayout?: SettlementLoaders['settlementsByPayout'];
  #changeAudit?: SettlementLoaders['changeAudit'];
  #quotationLines?: SettlementLoaders['quotationLines'];

  constructor(
    private readonly em: () => EntityManager,
    private readonly reads: EntityManager,
  ) {}

  get partner() {
    return (this.#partner ??= preparedByKey(this.reads, PARTNERS_BY_ID, 'id'));
  }
  get campaign() {
    return (this.#campaign ??= byKey(this.em(), Campaign, 'id'));
  }
  get settlementByCampaign() {
    return (this.#settlementByCampaign ??= byKey(this.em(), Settlement, 'campaignId'));
  }
  get advertiserInvoice() {
    return (this.#advertiserInvoice ??= preparedByKey(this.reads, INVOICES_BY_ID, 'id'));
  }
  get partnerPayout() {
    return (this.#partnerPayout ??= preparedByKey(this.reads, PAYOUTS_BY_ID, 'id'));
  }
  get reverseIssuanceBySettlement() {
    return (this.#reverseIssuanceBySettlement ??= preparedByKey(
      this.reads,
      REVERSE_ISSUANCES_BY_SETTLEMENT,
      'settlementId',
    ));
  }
  get auditBySettlement() {
    return (this.#auditBySettlement ??= allByKey(this.em(), SettlementAuditEntry, 'settlementId', {
      id: 'asc',
    }));
  }
  get settlementsByInvoice() {
    return (this.#settlementsByInvoice ??= allByKey(this.em(), Settlement, 'advertiserInvoiceId', {
      id: 'asc',
    }));
  }
  get settlementsByPayout() {
    return (this.#settlementsByPayout ??= allByKey(this.em(), Settlement, 'partnerPayoutId', {
      id: 'asc',
    }));
  }
  get changeAudit() {
    return (this.#changeAudit ??= changeAuditLoader(this.em()));
  }
  get quotationLines() {
    return (this.#quotationLines ??= allByKey(this.em(), QuotationLine, 'quotationId', {
      lineNo: 'asc',
    }));
  }
}

/** A request's loaders: `em` gives its EntityManager (forked on first use), `reads` the root. */
export function createLoaders(em: () => EntityManager, reads: EntityManager): SettlementLoaders {
  return new RequestLoaders(em, reads);
}

import type { EntityManager } from '@mikro-orm/postgresql';
import { runPrepared, type PreparedStatement } from '@campaign/platform';
import { AdvertiserInvoice } from '../invoice/advertiser-invoice.entity.js';
import { Partner } from '../partner/partner.entity.js';
import { PartnerPayout } from '../payout/partner-payout.entity.js';
import { ReverseIssuance } from '../reverse-issuance/reverse-issuance.entity.js';
import { Settlement } from './settlement.entity.js';

/**
 * The hot reads of a settlement (by id, and the documents and the partner its fields load) as
 * node-postgres named statements: parsed and planned once per connection, no query building in JavaScript (issue 14). Rows are mapped by MikroORM's hydrator
 * (`em.map`) into the same managed entities `em.find` gives (money as Decimal, dates as Date).
 * They run in autocommit on the ORM's pool: never inside a transaction, whose uncommitted rows
 * they would not see (callers check `em.isInTransaction()`).
 */
export interface KeyedRead<T> {
  entity: new () => T;
  statement: PreparedStatement;
}

const read = <T>(entity: new () => T, name: string, text: string): KeyedRead<T> => ({
  entity,
  statement: { name, text },
});

export const SETTLEMENT_BY_ID = read(
  Settlement,
  'settlement_by_id',
  'select * from settlement where id = $1',
);
export const PARTNERS_BY_ID = read(
  Partner,
  'settlement_partners_by_id',
  'select * from partner where id = any($1::bigint[])',
);
export const INVOICES_BY_ID = read(
  AdvertiserInvoice,
  'settlement_invoices_by_id',
  'select * from advertiser_invoice where id = any($1::bigint[])',
);
export const PAYOUTS_BY_ID = read(
  PartnerPayout,
  'settlement_payouts_by_id',
  'select * from partner_payout where id = any($1::bigint[])',
);
export const REVERSE_ISSUANCES_BY_SETTLEMENT = read(
  ReverseIssuance,
  'settlement_reverse_issuances',
  'select * from reverse_issuance where settlement_id = any($1::text[])',
);

/** Every row of `statement` run with `values`, as managed entities. */
export async function readRows<T extends object>(
  em: EntityManager,
  { entity, statement }: KeyedRead<T>,
  values: unknown[],
): Promise<T[]> {
  const rows = await runPrepared<Record<string, unknown>>(em, statement, values);
  return rows.map((row) => em.map(entity, row));
}

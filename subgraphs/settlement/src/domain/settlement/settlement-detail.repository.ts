import type { EntityManager } from '@mikro-orm/postgresql';
import { runPrepared, type PreparedStatement } from '@campaign/platform';
import { AdvertiserInvoice } from '../invoice/advertiser-invoice.entity.js';
import { Partner } from '../partner/partner.entity.js';
import { PartnerPayout } from '../payout/partner-payout.entity.js';
import { ReverseIssuance } from '../reverse-issuance/reverse-issuance.entity.js';
import { Settlement } from './settlement.entity.js';
import { columnsOf, type Column, type Stored } from './settlement-reads.repository.js';

/**
 * The documents a settlement's detail can show beside it, each joined on one key: the
 * settlement's `own` property equals the document's `theirs` (the keys the relation loaders of
 * api/loaders.ts read by). At most one row each (ids; `reverse_issuance.settlement_id` is unique).
 */
const JOINS = {
  partner: { entity: Partner, own: 'partnerId', theirs: 'id' },
  advertiserInvoice: { entity: AdvertiserInvoice, own: 'advertiserInvoiceId', theirs: 'id' },
  partnerPayout: { entity: PartnerPayout, own: 'partnerPayoutId', theirs: 'id' },
  reverseIssuance: { entity: ReverseIssuance, own: 'id', theirs: 'settlementId' },
} as const;

export type DetailRelation = keyof typeof JOINS;
export const DETAIL_RELATIONS = Object.keys(JOINS) as DetailRelation[];

/** A settlement as stored and, for each relation asked, its row (null: there is none). */
export interface SettlementDetail {
  settlement: Stored<Settlement>;
  related: { [R in DetailRelation]?: Stored<InstanceType<(typeof JOINS)[R]['entity']>> | null };
}

/** One table's columns in the statement's answer, from `start`; `key`: present when not null. */
interface Part {
  relation: DetailRelation | null;
  columns: Column[];
  start: number;
  key: number;
}

interface DetailStatement {
  statement: PreparedStatement;
  parts: Part[];
}

const statements = new Map<string, DetailStatement>();

/**
 * The settlement by id left-joined to the `relations` asked: one statement, so one snapshot
 * (READ COMMITTED takes one per statement). Its rows come as arrays (node-postgres's row mode)
 * and are cut into one object per table, named by property as {@link storedRows} names them.
 */
function detailStatement(em: EntityManager, relations: readonly DetailRelation[]): DetailStatement {
  const cacheKey = relations.join(',');
  const known = statements.get(cacheKey);
  if (known) return known;
  const metadata = em.getMetadata();
  const table = (entity: new () => object) => metadata.get(entity.name).tableName;
  const column = (entity: new () => object, property: string) =>
    columnsOf(em, entity).find((c) => c.property === property)!.column;
  const select: string[] = [];
  const joins: string[] = [];
  const parts: Part[] = [];
  const add = (alias: string, entity: new () => object, relation: DetailRelation | null) => {
    const columns = columnsOf(em, entity);
    const key = relation === null ? 'id' : JOINS[relation].theirs;
    const start = select.length;
    parts.push({ relation, columns, start, key: columns.findIndex((c) => c.property === key) });
    select.push(...columns.map((c) => `${alias}."${c.column}"`));
  };
  add('s', Settlement, null);
  relations.forEach((relation, index) => {
    const { entity, own, theirs } = JOINS[relation];
    const alias = `r${index}`;
    joins.push(
      `left join "${table(entity)}" ${alias} ` +
        `on ${alias}."${column(entity, theirs)}" = s."${column(Settlement, own)}"`,
    );
    add(alias, entity, relation);
  });
  const mask = relations.reduce((bits, r) => bits | (1 << DETAIL_RELATIONS.indexOf(r)), 0);
  const text =
    `select ${select.join(', ')} from "${table(Settlement)}" s ${joins.join(' ')} ` +
    `where s."${column(Settlement, 'id')}" = $1`;
  const prepared = { statement: { name: `settlement_detail_${mask}`, text }, parts };
  statements.set(cacheKey, prepared);
  return prepared;
}

/** One table's columns of `values` as its stored row (dates as MikroORM makes them). */
function rowOf({ columns, start }: Part, values: unknown[]): Record<string, unknown> {
  const row: Record<string, unknown> = {};
  for (let i = 0; i < columns.length; i++) {
    const { property, date } = columns[i]!;
    const value = values[start + i];
    row[property] = date && typeof value === 'string' ? new Date(value) : value;
  }
  return row;
}

/**
 * A settlement and the rows of `relations` (in {@link DETAIL_RELATIONS}' order) as one
 * statement saw them, or null when there is no such settlement. Outside a transaction only, as
 * every read of settlement-reads.repository.ts.
 */
export async function settlementDetail(
  em: EntityManager,
  id: string,
  relations: readonly DetailRelation[],
): Promise<SettlementDetail | null> {
  const { statement, parts } = detailStatement(em, relations);
  const [values] = await runPrepared<unknown[]>(em, statement, [id], 'array');
  if (!values) return null;
  const [own, ...others] = parts;
  const related: Record<string, unknown> = {};
  for (const part of others) {
    related[part.relation!] = values[part.start + part.key] === null ? null : rowOf(part, values);
  }
  return {
    settlement: rowOf(own!, values) as Stored<Settlement>,
    related: related as SettlementDetail['related'],
  };
}

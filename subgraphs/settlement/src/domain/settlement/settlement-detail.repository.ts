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

/**
 * One table's row in the statement's answer: a single JSON array of its columns (`index`: the
 * answer's column), so node-postgres reads one column per table, not one per stored field: its
 * RowDescription, parsers and field objects were a twentieth of the subgraph's CPU per detail
 * (issue 27).
 */
interface Part {
  relation: DetailRelation | null;
  columns: Column[];
}

interface DetailStatement {
  statement: PreparedStatement;
  parts: Part[];
}

const statements = new Map<string, DetailStatement>();

/** Column types whose JSON value parses to what node-postgres gives for the column itself. */
const JSON_AS_IS = /^(int|integer|int2|int4|smallint)$/;

/**
 * `column` as a JSON array element that parses to node-postgres's own value for it: integers as
 * JSON numbers (node-postgres's parseInt), everything else as its text, which is what
 * node-postgres gives for text, bigint ids, numeric money and (MikroORM's parsers) timestamps.
 * A column of another kind (a float, an array, a boolean) would read differently, so it stops
 * the statement from being built rather than answer another value.
 */
function element(alias: string, { column, type, runtimeType }: Column): string {
  if (JSON_AS_IS.test(type)) return `${alias}."${column}"`;
  if (runtimeType !== 'string' && runtimeType !== 'Date') {
    throw new Error(`settlement detail: no JSON reading for ${column} (${type}, ${runtimeType})`);
  }
  return `${alias}."${column}"::text`;
}

/**
 * The settlement by id left-joined to the `relations` asked: one statement, so one snapshot
 * (READ COMMITTED takes one per statement). Its row comes as an array of one JSON array per
 * table (null: no such document), cut into one object per table named by property as
 * {@link storedRows} names them.
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
    const array = `json_build_array(${columns.map((c) => element(alias, c)).join(', ')})`;
    parts.push({ relation, columns });
    select.push(
      relation === null
        ? array
        : // No row joined: the document's join key is null (it is never null in a row).
          `case when ${alias}."${column(entity, JOINS[relation].theirs)}" is null ` +
            `then null else ${array} end`,
    );
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
  const prepared = { statement: { name: `settlement_detail_json_${mask}`, text }, parts };
  statements.set(cacheKey, prepared);
  return prepared;
}

/** One table's JSON array as its stored row (dates as MikroORM makes them). */
function rowOf({ columns }: Part, values: unknown[]): Record<string, unknown> {
  const row: Record<string, unknown> = {};
  for (let i = 0; i < columns.length; i++) {
    const { property, date } = columns[i]!;
    const value = values[i];
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
  const [tables] = await runPrepared<(unknown[] | null)[]>(em, statement, [id], 'array');
  if (!tables) return null;
  const related: Record<string, unknown> = {};
  for (let i = 1; i < parts.length; i++) {
    const values = tables[i];
    related[parts[i]!.relation!] = values ? rowOf(parts[i]!, values) : null;
  }
  return {
    settlement: rowOf(parts[0]!, tables[0]!) as Stored<Settlement>,
    related: related as SettlementDetail['related'],
  };
}

import { createHash } from 'node:crypto';
import type { Decimal } from 'decimal.js';
import { ReferenceKind, type ObjectQuery } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { runPrepared, type PreparedStatement } from '@campaign/platform';
import { AdvertiserInvoice } from '../invoice/advertiser-invoice.entity.js';
import { Partner } from '../partner/partner.entity.js';
import { PartnerPayout } from '../payout/partner-payout.entity.js';
import { ReverseIssuance } from '../reverse-issuance/reverse-issuance.entity.js';
import { Settlement } from './settlement.entity.js';
import { shapeCache } from './statement-shapes.js';

/**
 * The hot reads of settlements (by id, the admin and partner lists, and the documents and the
 * partner their fields load) as node-postgres named statements: parsed and planned once per
 * connection, no query building in JavaScript per call (issue 14). Their rows are answers, not
 * entities to change (issue 27): PostgreSQL names each column after the entity's property, so
 * node-postgres's row is a plain object with the entity's property names; its timestamps become
 * Date as MikroORM's hydrator makes them, its money stays PostgreSQL's own numeric(15,2) text
 * ("1000000.00"), which the Decimal scalar sends as it is. No identity map, no entity class, no
 * Decimal per amount: MikroORM's hydration and its garbage were a third of the list's CPU.
 * They run in autocommit on the ORM's pool: never inside a transaction, whose uncommitted rows
 * they would not see (callers check `em.isInTransaction()`, or are queries).
 */
export interface KeyedRead<T> {
  entity: new () => T;
  statement: PreparedStatement;
}

/** A row as stored: `T`'s properties, money as its exact decimal text. */
export type Stored<T> = {
  [K in keyof T]: T[K] extends Decimal
    ? string
    : T[K] extends Decimal | null
      ? string | null
      : T[K];
};

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

/**
 * A scalar column of an entity: its property, whether MikroORM reads it as a Date, and its type
 * (MikroORM's column type and JavaScript type: how the detail's JSON reads it).
 */
export interface Column {
  property: string;
  column: string;
  date: boolean;
  type: string;
  runtimeType: string;
}
const columnLists = new WeakMap<object, Column[]>();

/** Column → property, from the entity's MikroORM metadata (the one place naming the columns). */
export function columnsOf(em: EntityManager, entity: new () => object): Column[] {
  const known = columnLists.get(entity);
  if (known) return known;
  const columns = em
    .getMetadata()
    .get(entity.name)
    .props.filter((prop) => prop.kind === ReferenceKind.SCALAR && prop.fieldNames?.length === 1)
    .map((prop) => ({
      property: prop.name,
      column: prop.fieldNames[0]!,
      date: prop.runtimeType === 'Date',
      type: prop.columnTypes[0] ?? '',
      runtimeType: prop.runtimeType,
    }));
  columnLists.set(entity, columns);
  return columns;
}

/**
 * `"column" as "property", …` of `from`'s columns: PostgreSQL names each answer column after its
 * property, so node-postgres's row object is the stored row itself (no second object per row).
 */
const asProperties = (columns: Column[], from: string) =>
  columns.map(({ column, property }) => `${from}."${column}" as "${property}"`).join(', ');

/**
 * A row named by property in place: its timestamps become Dates as MikroORM's hydrator makes
 * them (`new Date(text)`, the ORM's timezone unset); numbers, texts, bigint ids (strings) and
 * money (numeric text) stay as node-postgres gives them.
 */
function withDates<T>(columns: Column[], row: Record<string, unknown>): Stored<T> {
  for (const { property, date } of columns) {
    const value = row[property];
    if (date && typeof value === 'string') row[property] = new Date(value);
  }
  return row as Stored<T>;
}

const storedStatements = new WeakMap<KeyedRead<object>, PreparedStatement>();

/** `read`'s statement with its columns named by property (one more name per statement). */
function storedStatement(em: EntityManager, read: KeyedRead<object>): PreparedStatement {
  const known = storedStatements.get(read);
  if (known) return known;
  const { name, text } = read.statement;
  const columns = asProperties(columnsOf(em, read.entity), 'r');
  const statement = { name: `${name}_stored`, text: `select ${columns} from (${text}) as r` };
  storedStatements.set(read, statement);
  return statement;
}

/** Every row of `read` run with `values`, as stored rows (plain objects). */
export async function storedRows<T extends object>(
  em: EntityManager,
  read: KeyedRead<T>,
  values: unknown[],
): Promise<Stored<T>[]> {
  const statement = storedStatement(em, read);
  const rows = await runPrepared<Record<string, unknown>>(em, statement, values);
  const columns = columnsOf(em, read.entity);
  return rows.map((row) => withDates<T>(columns, row));
}

/** The page statement's count column. */
const TOTAL = '__total';

/** A prepared statement named after its text: one per shape of a query MikroORM built. */
const namedAfter = (prefix: string, text: string): PreparedStatement => ({
  name: `${prefix}_${createHash('sha1').update(text).digest('hex').slice(0, 16)}`,
  text,
});

/** The conditions of one page: the count's (all that match) and the page's (after a position). */
interface PageWhere {
  count: ObjectQuery<Settlement>;
  page: ObjectQuery<Settlement>;
}

/**
 * The page statement of `where` (see {@link newestSettlements}): MikroORM writes the SQL of the
 * filter (the scope and list conditions stay ObjectQuery, one definition).
 */
function pageStatement(em: EntityManager, where: PageWhere, pageSize: number) {
  const page = em
    .createQueryBuilder(Settlement)
    .select('*')
    .where(where.page)
    .orderBy({ idNumber: 'desc' })
    .limit(pageSize + 1)
    .getKnexQuery()
    .toSQL()
    .toNative();
  const count = em
    .createQueryBuilder(Settlement)
    .count()
    .where(where.count)
    .getKnexQuery()
    .toSQL()
    .toNative();
  // The page's placeholders come after the count's: $1.. of the count, then $n+1.. of the page.
  const shift = count.bindings.length;
  const pageText = page.sql.replace(/\$(\d+)/g, (_, n: string) => `$${Number(n) + shift}`);
  const order = em.getMetadata().get(Settlement.name).properties.idNumber.fieldNames[0]!;
  const text =
    `select ${asProperties(columnsOf(em, Settlement), 'p')}, c.total::int as "${TOTAL}" ` +
    `from (${count.sql}) as c(total) left join (${pageText}) as p on true ` +
    `order by p."${order}" desc`;
  return {
    statement: namedAfter('settlement_page', text),
    values: [...count.bindings, ...page.bindings],
  };
}

/** The page statement per shape of its conditions and page size (statement-shapes.ts). */
const pageStatements = new WeakMap<object, ReturnType<typeof shapeCache<PreparedStatement>>>();

/**
 * One page of the settlements matching `where`, newest first by the indexed id number, after
 * position `after`, and the number of all that match. node-postgres runs it as a prepared
 * statement and the rows stay plain ({@link storedRows}). Count and page are one statement: the
 * count runs even when the page is empty (a cursor past the last row).
 */
export async function newestSettlements(
  em: EntityManager,
  where: ObjectQuery<Settlement>,
  after: string | null,
  pageSize: number,
): Promise<{ items: Stored<Settlement>[]; total: number; more: boolean }> {
  const page = after === null ? where : { $and: [where, { idNumber: { $lt: after } }] };
  // Per ORM (its metadata names the columns); every fork of one shares its configuration.
  let shapes = pageStatements.get(em.config);
  if (!shapes) pageStatements.set(em.config, (shapes = shapeCache<PreparedStatement>()));
  const { statement, values } = shapes({ count: where, page }, [pageSize], (conditions) =>
    pageStatement(em, conditions as PageWhere, pageSize),
  );
  const rows = await runPrepared<Record<string, unknown>>(em, statement, values);
  const total = Number(rows[0]?.[TOTAL] ?? 0);
  // The count is the last column, so deleting it leaves each row in the shape it had before
  // (V8's fast path for the last property added).
  for (const row of rows) delete row[TOTAL];
  const columns = columnsOf(em, Settlement);
  const items = rows
    .filter((row) => row['id'] !== null)
    .map((row) => withDates<Settlement>(columns, row));
  return { items: items.slice(0, pageSize), total, more: items.length > pageSize };
}

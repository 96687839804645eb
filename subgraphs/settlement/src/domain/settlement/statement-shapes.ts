import { isDeepStrictEqual } from 'node:util';

/** A value of a query's condition that becomes a bound parameter. */
type Leaf = string | number | Date;

const isLeaf = (value: unknown): value is Leaf =>
  typeof value === 'string' || typeof value === 'number' || value instanceof Date;

/** Marks a condition the shape walk does not know (it is then built on every call). */
const UNKNOWN = Symbol('unknown shape');

/**
 * The shape of a condition (its keys, operators, array lengths, nulls, and each leaf's type),
 * with its leaves pushed in walk order; UNKNOWN for anything but plain objects, arrays, leaves,
 * null and booleans.
 */
function shapeOf(value: unknown, leaves: Leaf[]): unknown {
  if (isLeaf(value)) {
    leaves.push(value);
    return value instanceof Date ? '$date' : `$${typeof value}`;
  }
  if (value === null || value === undefined || typeof value === 'boolean') return value ?? '$none';
  if (Array.isArray(value)) return value.map((item) => shapeOf(item, leaves));
  if (
    typeof value === 'object' &&
    Object.getPrototypeOf(value) === Object.prototype &&
    Object.getOwnPropertySymbols(value).length === 0
  ) {
    const shape: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      const inner = shapeOf(item, leaves);
      if (inner === UNKNOWN) return UNKNOWN;
      shape[key] = inner;
    }
    return shape;
  }
  return UNKNOWN;
}

/** `value` with its leaves, in walk order, replaced by `leaves`. */
function withLeaves<T>(value: T, leaves: readonly Leaf[], next = { at: 0 }): T {
  if (isLeaf(value)) return leaves[next.at++] as T;
  if (Array.isArray(value))
    return value.map((item: unknown) => withLeaves(item, leaves, next)) as T;
  if (value && typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, withLeaves(item, leaves, next)]),
    ) as T;
  return value;
}

/** Leaves no caller sends, one per position and of the same type, told apart by value. */
function sentinelsFor(leaves: readonly Leaf[], nonce: string): Leaf[] {
  return leaves.map((leaf, i) =>
    typeof leaf === 'string'
      ? `${nonce}${i}`
      : typeof leaf === 'number'
        ? 987_654_321 + i
        : new Date(Date.UTC(1901, 0, 1, 0, 0, i)),
  );
}

const sameLeaf = (a: unknown, b: Leaf) =>
  b instanceof Date ? a instanceof Date && a.getTime() === b.getTime() : a === b;

/** A statement (its text at least) and the values it runs with. */
export interface Built<S extends { text: string }> {
  statement: S;
  values: unknown[];
}

/** A built statement and, per value, the leaf it is (an index) or a constant. */
interface Template<S> {
  statement: S;
  values: Slot[];
}

/** A value of a kept statement: the leaf of the condition it is, or a constant of the shape. */
type Slot = { leaf: number } | { constant: unknown };

/** Enough for every combination of the list's filters; a shape past it is built each call. */
const MAX_SHAPES = 512;

/**
 * `build` (a query builder's SQL and values for a condition), kept per shape of the condition
 * (issue 27: building the settlement list's SQL was 4.7 % of the subgraph's CPU on a list).
 * A shape is kept only when it proves itself on first use: built again with sentinel leaves,
 * every leaf must come back as one of the values and none in the text, and the template filled
 * with the real leaves must equal the statement built from them; otherwise it is built each call.
 */
export function shapeCache<S extends { text: string }>() {
  const templates = new Map<string, Template<S> | null>();
  const nonce = `\u0001leaf-${process.pid}-`;
  /** `build(where)`, kept per shape of `where` and `parts` (what else the statement depends on). */
  return (where: unknown, parts: unknown[], build: (where: unknown) => Built<S>): Built<S> => {
    const leaves: Leaf[] = [];
    const shape = shapeOf(where, leaves);
    if (shape === UNKNOWN) return build(where);
    const key = JSON.stringify([shape, parts]);
    const known = templates.get(key);
    if (known)
      return {
        statement: known.statement,
        values: known.values.map((v) => ('leaf' in v ? leaves[v.leaf] : v.constant)),
      };
    const built = build(where);
    if (known === undefined && templates.size < MAX_SHAPES)
      templates.set(key, templateOf(build, where, leaves, built, nonce));
    return built;
  };
}

function templateOf<S extends { text: string }>(
  build: (where: unknown) => Built<S>,
  where: unknown,
  leaves: Leaf[],
  built: Built<S>,
  nonce: string,
): Template<S> | null {
  const sentinels = sentinelsFor(leaves, nonce);
  const probe = build(withLeaves(where, sentinels));
  const text = built.statement.text;
  if (probe.statement.text !== text || text.includes(nonce)) return null;
  const values = probe.values.map((value): Slot => {
    const leaf = sentinels.findIndex((sentinel) => sameLeaf(value, sentinel));
    return leaf >= 0 ? { leaf } : { constant: value };
  });
  const used = new Set(values.flatMap((v) => ('leaf' in v ? [v.leaf] : [])));
  if (used.size !== leaves.length) return null;
  const filled = values.map((v) => ('leaf' in v ? leaves[v.leaf] : v.constant));
  return isDeepStrictEqual(filled, built.values) ? { statement: built.statement, values } : null;
}

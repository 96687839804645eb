import { describe, expect, it } from 'vitest';
import { shapeCache, type Built } from './statement-shapes.js';

/**
 * Issue 27: the list's statement is kept per shape of its condition. A stand-in query builder:
 * one placeholder per leaf, walked as a builder would (keys in order), values bound in order.
 */
function builder(convert: (leaf: unknown) => unknown = (leaf) => leaf, inline = false) {
  let calls = 0;
  const build = (where: unknown): Built<{ text: string }> => {
    calls++;
    const values: unknown[] = [];
    const sql = (value: unknown): string => {
      if (value === null) return 'null';
      if (Array.isArray(value)) return `(${value.map(sql).join(' and ')})`;
      if (typeof value === 'object' && !(value instanceof Date))
        return Object.entries(value as object)
          .map(([key, item]) => `${key} = ${sql(item)}`)
          .join(' and ');
      if (inline) return `'${String(value)}'`;
      values.push(convert(value));
      return `$${values.length}`;
    };
    return { statement: { text: `select ${sql(where)}` }, values: [...values, 10] };
  };
  return { build, calls: () => calls };
}

describe('shapeCache', () => {
  it('builds a shape once and fills its statement with each call’s values', () => {
    const shapes = shapeCache<{ text: string }>();
    const { build, calls } = builder();
    const at = new Date('2026-01-01T00:00:00Z');
    const first = shapes({ $and: [{ partnerId: 'p1' }, { createdAt: { $gte: at } }] }, [10], build);
    const later = new Date('2026-02-01T00:00:00Z');
    const second = shapes(
      { $and: [{ partnerId: 'p2' }, { createdAt: { $gte: later } }] },
      [10],
      build,
    );
    expect(second).toEqual(build({ $and: [{ partnerId: 'p2' }, { createdAt: { $gte: later } }] }));
    expect(second.statement).toBe(first.statement);
    expect(second.values).toEqual(['p2', later, 10]);
    expect(calls()).toBe(3); // the first call and its proof; the second call none (one above).
  });

  it('tells shapes apart: a null, another key, another page size', () => {
    const shapes = shapeCache<{ text: string }>();
    const { build } = builder();
    expect(shapes({ agencyId: null }, [10], build).statement.text).toBe('select agencyId = null');
    expect(shapes({ agencyId: 'a' }, [10], build).values).toEqual(['a', 10]);
    expect(shapes({ campaignId: 'c' }, [10], build).statement.text).toBe('select campaignId = $1');
    expect(shapes({ agencyId: 'a' }, [20], build)).toEqual(build({ agencyId: 'a' }));
  });

  it('keeps no shape whose leaves the builder inlines or converts', () => {
    for (const { build, calls } of [
      builder(undefined, true),
      builder((leaf) => (leaf instanceof Date ? leaf.toISOString() : leaf)),
    ]) {
      const shapes = shapeCache<{ text: string }>();
      const at = (day: number) => ({ createdAt: { $lt: new Date(Date.UTC(2026, 0, day)) } });
      shapes(at(1), [], build);
      const before = calls();
      expect(shapes(at(2), [], build)).toEqual(build(at(2)));
      expect(calls()).toBe(before + 2); // built again for the call, then once here.
    }
  });
});

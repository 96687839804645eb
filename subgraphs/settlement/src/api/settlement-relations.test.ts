import { parse, type GraphQLResolveInfo, type OperationDefinitionNode } from 'graphql';
import { describe, expect, it } from 'vitest';
import { SettledLoader } from './settled-loader.js';
import { selectedFields } from './selected-fields.js';

/** The resolve info of the query's root field, as graphql gives it (only what is read here). */
function rootInfo(query: string): GraphQLResolveInfo {
  const document = parse(query);
  const operation = document.definitions.find(
    (d): d is OperationDefinitionNode => d.kind === 'OperationDefinition',
  )!;
  const fragments = Object.fromEntries(
    document.definitions.flatMap((d) =>
      d.kind === 'FragmentDefinition' ? [[d.name.value, d]] : [],
    ),
  );
  const field = operation.selectionSet.selections[0]!;
  if (field.kind !== 'Field') throw new Error('a field first');
  return { fieldNodes: [field], fragments } as unknown as GraphQLResolveInfo;
}

// The selection alone is read: no schema is needed.
describe('selectedFields', () => {
  it("names a page's item fields through inline fragments and fragment spreads", () => {
    const info = rootInfo(`{ settlements { total items { id ... on Settlement { partner { id } }
      ...More } nextCursor } } fragment More on Settlement { reverseIssuance { status } id }`);
    expect([...selectedFields(info, 'items')].sort()).toEqual(['id', 'partner', 'reverseIssuance']);
    expect([...selectedFields(info)].sort()).toEqual(['items', 'nextCursor', 'total']);
  });

  it('names the fields of one row, aliases by their field name', () => {
    const info = rootInfo(
      `{ result: settlement(id: "SET1") { id invoice: advertiserInvoice { id } } }`,
    );
    expect([...selectedFields(info)].sort()).toEqual(['advertiserInvoice', 'id']);
  });
});

describe('SettledLoader', () => {
  it('answers a loaded key at once, in one batch for all keys', async () => {
    const batches: string[][] = [];
    const loader = new SettledLoader<string | null>(async (keys) => {
      batches.push([...keys]);
      return keys.map((key) => (key === 'none' ? null : `row ${key}`));
    });
    const pending = loader.settledOrLoad('a');
    expect(pending).toBeInstanceOf(Promise);
    await loader.loadMany(['a', 'b', 'none']);
    expect(await pending).toBe('row a');
    expect(loader.settledOrLoad('b')).toBe('row b');
    expect(loader.settledOrLoad('none')).toBeNull();
    expect(batches).toEqual([['a', 'b', 'none']]);
  });

  it('keeps no key of a failed batch: the next use loads it again', async () => {
    let calls = 0;
    const loader = new SettledLoader<string>(async (keys) => {
      calls += 1;
      if (calls === 1) throw new Error('database unavailable');
      return keys.map((key) => `row ${key}`);
    });
    const [failed] = await loader.loadMany(['a']);
    expect(failed).toBeInstanceOf(Error);
    const again = loader.settledOrLoad('a');
    expect(again).toBeInstanceOf(Promise);
    expect(await again).toBe('row a');
    expect(calls).toBe(2);
  });
});

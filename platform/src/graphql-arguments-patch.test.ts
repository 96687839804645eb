import { createRequire } from 'node:module';
import type { FieldNode, OperationDefinitionNode } from 'graphql';
import { describe, expect, it } from 'vitest';

// The CommonJS build, as the services load it (Node resolves graphql's `main`; vitest alone would
// give the ES build, which the patch changes the same way).
const require = createRequire(import.meta.url);
const { buildSchema, parse } = require('graphql') as typeof import('graphql');
const { getArgumentValues } =
  require('graphql/execution/values.js') as typeof import('graphql/execution/values.js');

/**
 * Issue 27: patches/graphql@16.15.0.patch. graphql's `execute` asks every field for its argument
 * values; for a field without arguments it built a map of the field node's arguments and dropped
 * it. Patched, such a field returns its empty arguments without reading the node.
 */
describe("graphql's getArgumentValues (patched)", () => {
  const schema = buildSchema(
    'type Query { plain: String, sized(size: Int = 3, name: String): String }',
  );
  const fields = schema.getQueryType()!.getFields();
  const fieldNode = (text: string) =>
    (parse(text).definitions[0] as OperationDefinitionNode).selectionSet.selections[0] as FieldNode;

  it('gives a field without arguments empty arguments without reading the field node', () => {
    let reads = 0;
    const node = fieldNode('{ plain }');
    const watched = new Proxy(node, {
      get(target, key, receiver) {
        if (key === 'arguments') reads++;
        return Reflect.get(target, key, receiver) as unknown;
      },
    });
    const args = getArgumentValues(fields['plain']!, watched, {});
    expect(args).toEqual({});
    // What graphql returned before: a plain object (its `{ ...coercedValues }`).
    expect(Object.getPrototypeOf(args)).toBe(Object.prototype);
    expect(reads).toBe(0);
  });

  it('coerces the arguments of a field that has them as before', () => {
    expect(getArgumentValues(fields['sized']!, fieldNode('{ sized(name: "a") }'), {})).toEqual({
      size: 3,
      name: 'a',
    });
    expect(
      getArgumentValues(fields['sized']!, fieldNode('query($n: String) { sized(name: $n) }'), {
        n: 'b',
      }),
    ).toEqual({ size: 3, name: 'b' });
  });
});

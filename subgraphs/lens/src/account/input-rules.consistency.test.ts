import 'reflect-metadata';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PlatformError } from '@campaign/schema';
import { lensOpenApi, lensOperationDocs } from '@campaign/schema/lens-openapi';
import { createLensOperations, operationsByName } from './lens-operations.js';

/**
 * REST bodies are checked with the OpenAPI document (ajv in the adapter), GraphQL input with the
 * subgraph's zod rules. For every input both can express (no nulls), they must agree.
 */
const ajv = new Ajv2020({ strict: false });
addFormats.default(ajv);
ajv.addSchema(lensOpenApi(), 'lens');
const definitions = operationsByName(createLensOperations({ cursorSecret: 'x'.repeat(32) }));

const text = (chars: string, max: number) =>
  fc.array(fc.constantFrom(...chars), { maxLength: max }).map((a) => a.join(''));
const handle = fc.oneof(
  text('abcXYZ019._', 32),
  text('ab -é😀', 4),
  fc.constantFrom('h'.repeat(30), 'h'.repeat(31)),
);
const accountId = fc.oneof(
  text('0123456789', 32),
  fc.constantFrom(`1${'0'.repeat(29)}`, `1${'0'.repeat(30)}`, '0', '9x'),
);
const accountRef = fc.oneof(
  fc.record({ handle }),
  fc.record({ accountId }),
  fc.record({ handle, accountId }),
  fc.constant({}),
  fc.record({ handle, other: fc.constant('x') }),
);
const search = fc.oneof(
  text('ab ', 5),
  fc.constantFrom(...[0, 1, 100, 101, 200, 201].map((n) => 'q'.repeat(n))),
  fc.constantFrom('   ', '😀'.repeat(100), '😀'.repeat(101), '😀'.repeat(200), '😀'.repeat(201)),
);
const cursor = fc.constantFrom('', 'c1.a.b', 'z'.repeat(16384), 'z'.repeat(16385));
const optional = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });

const body = fc
  .record({
    accountRef: optional(accountRef),
    accountRefs: optional(fc.array(accountRef, { maxLength: 6 })),
    cursor: optional(cursor),
    pageSize: optional(fc.integer({ min: -1, max: 52 })),
    search: optional(search),
    detail: optional(fc.constantFrom('standard', 'extended', 'full')),
    // An unknown key in about one body in ten.
    extra: fc.integer({ min: 0, max: 9 }).map((n) => (n === 0 ? 1 : undefined)),
  })
  .map((b) => Object.fromEntries(Object.entries(b).filter(([, v]) => v !== undefined)));

function zodAccepts(name: string, raw: unknown): boolean {
  try {
    definitions.get(name)!.parseInput(raw as never);
    return true;
  } catch (error) {
    if (error instanceof PlatformError && error.code === 'INVALID_CURSOR') return true;
    if (error instanceof PlatformError && error.code === 'INVALID_REQUEST') return false;
    throw error;
  }
}

describe('REST (OpenAPI) and GraphQL (zod) input rules agree', () => {
  it.each(lensOperationDocs.map((d) => [d.name, d] as const))('%s', (name, doc) => {
    const validate = ajv.compile({ $ref: `lens#/components/schemas/${doc.request}` });
    // Bodies shaped for this operation, so that most runs reach the field rules.
    const relevant = body.map((b) => {
      const keep = Object.keys(
        (lensOpenApi() as { components: { schemas: Record<string, { properties: object }> } })
          .components.schemas[doc.request]!.properties,
      );
      return Object.fromEntries(
        Object.entries(b).filter(([k]) => keep.includes(k) || k === 'extra'),
      );
    });
    fc.assert(
      fc.property(relevant, (raw) => {
        expect(zodAccepts(name, raw), JSON.stringify(raw).slice(0, 300)).toBe(validate(raw));
      }),
      { numRuns: 400 },
    );
  });
});

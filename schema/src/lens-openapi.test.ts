import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { lensOperationList, lensOperations, typeName } from './lens-operations.js';
import { lensOpenApi, lensOpenApiText, readLensOpenApi } from './lens-openapi.js';

const ajv = new Ajv2020({ strict: false });
addFormats.default(ajv);
ajv.addSchema(lensOpenApi(), 'lens.json');
const requestValidator = (name: string) =>
  ajv.compile({ $ref: `lens.json#/components/schemas/${name}` });

describe('schema/openapi/lens.json', () => {
  // The request schemas are generated from the operations' zod schemas: this is what keeps the
  // published document (REST) and the subgraph's parsing (GraphQL) the same rules.
  it('matches the code (run `npm run compose`)', async () => {
    expect(await readLensOpenApi()).toBe(lensOpenApiText());
  });

  it('compiles as JSON Schema 2020-12 and documents all thirteen operations', () => {
    for (const name of Object.keys((lensOpenApi()['components'] as { schemas: object }).schemas)) {
      expect(() => requestValidator(name)).not.toThrow();
    }
    expect(lensOperationList).toHaveLength(13);
    const paths = Object.keys(lensOpenApi()['paths'] as object);
    expect(paths).toEqual([
      ...lensOperationList.map((o) => o.path),
      '/operations/{operationId}',
      '/usage',
      '/openapi.json',
    ]);
  });
});

describe('search disables paging (L11): the one rule written twice, zod and JSON Schema', () => {
  const followers = lensOperations['accounts.followers'];
  const rest = requestValidator(typeName(followers, 'Request'));
  const ref = { handle: 'minji.daily' };

  it.each([
    [{ accountRef: ref, search: 'a' }, true],
    [{ accountRef: ref, search: 'a', cursor: null }, true],
    [{ accountRef: ref, search: 'a', cursor: 'c1.x.y' }, false],
    [{ accountRef: ref, search: 'a', pageSize: 10 }, false],
    [{ accountRef: ref, pageSize: 10, cursor: 'c1.x.y' }, true],
  ])('%j → accepted %s by both', (body, accepted) => {
    expect(rest(body)).toBe(accepted);
    expect(followers.input.safeParse(body).success).toBe(accepted);
  });
});

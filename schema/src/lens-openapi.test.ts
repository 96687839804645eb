import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import {
  lensOpenApi,
  lensOpenApiText,
  lensOperationDocs,
  readLensOpenApi,
} from './lens-openapi.js';

describe('schema/openapi/lens.json', () => {
  it('matches the code (run `npm run compose`)', async () => {
    expect(await readLensOpenApi()).toBe(lensOpenApiText());
  });

  it('compiles as JSON Schema 2020-12 and documents all thirteen operations', () => {
    const ajv = new Ajv2020({ strict: false });
    addFormats.default(ajv);
    ajv.addSchema(lensOpenApi(), 'lens.json');
    for (const name of Object.keys((lensOpenApi()['components'] as { schemas: object }).schemas)) {
      expect(() => ajv.compile({ $ref: `lens.json#/components/schemas/${name}` })).not.toThrow();
    }
    expect(lensOperationDocs).toHaveLength(13);
  });
});

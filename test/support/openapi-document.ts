import { readFile } from 'node:fs/promises';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { expect } from 'vitest';

/** What the checks below read of a served OpenAPI document. */
interface ServedDocument {
  openapi: string;
  servers?: unknown;
  components: { schemas?: Record<string, unknown> };
}

/**
 * The served document is the committed `file`: all but the servers, which name the adapter it
 * was fetched from (served-openapi.test.ts).
 */
export async function expectCommittedDocument(doc: ServedDocument, file: URL): Promise<void> {
  const { servers: _served, ...served } = doc;
  const { servers: _committed, ...committed } = JSON.parse(await readFile(file, 'utf8'));
  expect(served).toEqual(committed);
}

/** OpenAPI 3.1, and every schema of its components compiles as JSON Schema 2020-12. */
export function expectSchemasCompile(doc: ServedDocument): void {
  expect(doc.openapi).toBe('3.1.0');
  const ajv = new Ajv2020({ strict: false });
  addFormats.default(ajv);
  ajv.addSchema(doc, 'doc');
  for (const name of Object.keys(doc.components.schemas ?? {})) {
    expect(() => ajv.compile({ $ref: `doc#/components/schemas/${name}` }), name).not.toThrow();
  }
}

import { beforeAll, describe, expect, it } from 'vitest';
import { lensOpenApiFile } from '@campaign/schema';
import { rest } from '../support/clients.js';
import { expectCommittedDocument, expectSchemasCompile } from '../support/openapi-document.js';
import {
  createKeys,
  expectDocumented,
  OPERATIONS,
  restOk,
  restOp,
  type LensBody,
  type OperationName,
} from './lens-client.js';

interface Doc {
  openapi: string;
  info: { version: string };
  servers: unknown[];
  security: Record<string, string[]>[];
  paths: Record<string, Record<string, Record<string, unknown>>>;
  components: {
    schemas: Record<string, Record<string, unknown>>;
    securitySchemes: Record<string, Record<string, unknown>>;
    parameters: Record<string, { schema: Record<string, unknown>; required: boolean; in: string }>;
    responses: Record<string, { headers?: Record<string, unknown> }>;
  };
}

const ERROR_STATUSES = ['400', '401', '402', '403', '404', '409', '429', '500', '503'];

describe('the OpenAPI 3.1 document of /api/lens/v1', () => {
  let doc: Doc;
  let key: string;

  beforeAll(async () => {
    const served = await rest<Doc>('GET', '/api/lens/v1/openapi.json');
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toContain('application/json');
    doc = served.body;
    [key] = await createKeys(1);
  });

  it('is served without a key and is the committed schema/openapi/lens.json', async () => {
    await expectCommittedDocument(doc, lensOpenApiFile);
  });

  it('is OpenAPI 3.1, version 1.0.0, and compiles as JSON Schema 2020-12', () => {
    expect(doc.info.version).toBe('1.0.0');
    expectSchemasCompile(doc);
  });

  it('secures everything with the LensKey bearer scheme', () => {
    expect(doc.components.securitySchemes['LensKey']).toMatchObject({
      type: 'http',
      scheme: 'bearer',
    });
    expect(doc.security).toEqual([{ LensKey: [] }]);
  });

  it.each(Object.entries(OPERATIONS))('documents POST %s completely', (name, { path, field }) => {
    const operation = doc.paths[path]?.['post'] as Record<string, unknown> & {
      responses: Record<string, unknown>;
      parameters: { $ref: string }[];
      requestBody: { required: boolean; content: Record<string, { schema: { $ref: string } }> };
    };
    expect(operation, path).toBeDefined();
    expect(operation['operationId']).toBe(field);
    expect(operation['x-operation-name']).toBe(name);
    expect(operation['deprecated']).toBe(false);
    expect(operation.parameters).toContainEqual({
      $ref: '#/components/parameters/IdempotencyKey',
    });
    expect(operation.requestBody.required).toBe(true);
    const bodyRef = operation.requestBody.content['application/json']!.schema.$ref;
    const body = doc.components.schemas[bodyRef.split('/').at(-1)!]!;
    expect(body['additionalProperties']).toBe(false);
    expect(Object.keys(operation.responses).sort()).toEqual(
      ['200', '202', ...ERROR_STATUSES].sort(),
    );
  });

  it('documents the Idempotency-Key header (1-128) and the 429 headers', () => {
    expect(doc.components.parameters['IdempotencyKey']).toMatchObject({
      in: 'header',
      required: true,
      schema: { type: 'string', minLength: 1, maxLength: 128 },
    });
    expect(Object.keys(doc.components.responses['TooManyRequests']!.headers!).sort()).toEqual(
      ['RateLimit', 'RateLimit-Policy', 'Retry-After'].sort(),
    );
  });

  it('closes every object schema of the results and the envelope', () => {
    const open: string[] = [];
    const visit = (schema: unknown, where: string) => {
      if (!schema || typeof schema !== 'object') return;
      const s = schema as Record<string, unknown>;
      if (s['properties'] && s['additionalProperties'] !== false) open.push(where);
      // A `not` describes what is refused (L11: search with paging), not a shape.
      for (const [k, v] of Object.entries(s)) if (k !== 'not') visit(v, `${where}/${k}`);
    };
    for (const [name, schema] of Object.entries(doc.components.schemas)) visit(schema, name);
    expect(open).toEqual([]);
  });

  it('documents every path the REST adapter serves under /api/lens/v1', () => {
    expect(Object.keys(doc.paths).sort()).toEqual(
      [
        ...Object.values(OPERATIONS).map((o) => o.path),
        '/operations/{operationId}',
        '/usage',
        '/openapi.json',
      ].sort(),
    );
  });

  it('documents the status endpoint, and its answers match', async () => {
    const envelope = await restOk(
      'accounts.profile',
      { accountRef: { handle: 'doc.status' } },
      key,
    );
    const found = await rest<LensBody>('GET', `/api/lens/v1/operations/${envelope.operationId}`, {
      token: key,
    });
    expectDocumented('/operations/{operationId}', 'get', found);
    expect(found.status).toBe(200);
    expect(found.body.data).toEqual({ ...envelope, replayed: false });
    const missing = await rest('GET', '/api/lens/v1/operations/not-an-operation', { token: key });
    expectDocumented('/operations/{operationId}', 'get', missing);
    expect(missing.status).toBe(404);
    const anonymous = await rest('GET', `/api/lens/v1/operations/${envelope.operationId}`);
    expectDocumented('/operations/{operationId}', 'get', anonymous);
    expect(anonymous.status).toBe(401);
  });

  it.each(Object.keys(OPERATIONS) as OperationName[])(
    '%s: a 401 and a 400 match the document too',
    async (name) => {
      // The body is checked before the credential (DESIGN.md L2).
      const badBody = await restOp(name, {}, 'lens_wrong');
      expect(badBody.status).toBe(400);
      const noKey = await restOp(
        name,
        name === 'accounts.search'
          ? { search: 'x' }
          : name === 'accounts.stories'
            ? { accountRefs: [{ handle: 'x' }] }
            : { accountRef: { handle: 'x' } },
        'lens_wrong',
      );
      expect(noKey.status).toBe(401);
    },
  );
});

import { beforeAll, describe, expect, it } from 'vitest';
import { rest } from '../support/clients.js';
import { expectCommittedDocument, expectSchemasCompile } from '../support/openapi-document.js';
import {
  documentedPath,
  settlementOpenApiFile,
  type SettlementDocument,
} from '../support/settlement-openapi.js';
import * as f from './support.js';

/**
 * The OpenAPI 3.1 document of the admin, partner, public and webhook paths (issue 15). The shared
 * REST client checks every answer of a documented path against it (support/settlement-openapi.ts),
 * so the whole settlement suite validates its answers; this file checks the document itself and
 * sends each documented operation the requests every path must answer as documented.
 */

type Operation = {
  operationId: string;
  security: Record<string, string[]>[];
  parameters: { name: string; in: string }[];
  requestBody?: { required: boolean; content: Record<string, { schema: Record<string, unknown> }> };
  responses: Record<string, unknown>;
};

/** Spec 4.1 (11), 4.2 (7), 4.4 (8), 4.5 (9), 4.6 (1), the webhook and the document itself. */
const OPERATION_COUNT = 11 + 7 + 8 + 9 + 1 + 1 + 1;

/** The path with ids nobody has (an agency id is a number, a settlement's SET<n>). */
const concrete = (path: string) =>
  path
    .replace('{id}', path.includes('/agencies/') ? '999999999' : 'SET999999999')
    .replace('{quoId}', 'QUO999999999')
    .replace('{code}', 'no-such-code');

describe('the OpenAPI 3.1 document of the settlement paths', () => {
  let doc: SettlementDocument & {
    paths: Record<string, Record<string, Operation>>;
    servers: unknown[];
  };
  let operations: [string, string, Operation][];
  let admin: string;
  let partner: string;

  beforeAll(async () => {
    const served = await rest<typeof doc>('GET', '/api/openapi.json');
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toContain('application/json');
    doc = served.body;
    operations = Object.entries(doc.paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(
        ([method, op]) => [path, method, op] as [string, string, Operation],
      ),
    );
    admin = await f.adminToken();
    partner = await f.partnerToken(1);
  });

  it('is served without a credential and is the committed schema/openapi/settlement.json', async () => {
    await expectCommittedDocument(doc, settlementOpenApiFile);
  });

  it('is OpenAPI 3.1 and every schema compiles as JSON Schema 2020-12', () => {
    expectSchemasCompile(doc);
  });

  it('documents every admin, partner, public and webhook path of the specification', () => {
    expect(operations).toHaveLength(OPERATION_COUNT);
    const prefixes = new Set(operations.map(([path]) => path.split('/').slice(0, 3).join('/')));
    expect([...prefixes].sort()).toEqual(
      ['/api/admin', '/api/openapi.json', '/api/partner', '/api/public', '/api/webhooks'].sort(),
    );
    expect(new Set(operations.map(([, , op]) => op.operationId)).size).toBe(OPERATION_COUNT);
  });

  it('names the security of each path: admin and partner JWTs, a signature, none', () => {
    const schemes = doc.components['securitySchemes']!;
    expect(schemes['AdminBearer']).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(schemes['PartnerBearer']).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(schemes['TaxInvoiceSignature']).toMatchObject({
      type: 'apiKey',
      in: 'header',
      name: 'X-Signature',
    });
    for (const [path, , op] of operations) {
      const expected = path.startsWith('/api/admin/')
        ? [{ AdminBearer: [] }]
        : path.startsWith('/api/partner/')
          ? [{ PartnerBearer: [] }]
          : path.startsWith('/api/webhooks/')
            ? [{ TaxInvoiceSignature: [] }]
            : [];
      expect(op.security, path).toEqual(expected);
    }
  });

  it('closes every request body the API refuses unknown fields of', () => {
    const schemas = doc.components['schemas']!;
    for (const [path, method, op] of operations) {
      const schema = op.requestBody?.content['application/json']?.schema;
      if (!schema || path === '/api/public/business/verify') continue;
      const named =
        typeof schema['$ref'] === 'string' ? schemas[schema['$ref'].split('/').at(-1)!]! : schema;
      expect(named['additionalProperties'], `${method} ${path}`).toBe(false);
    }
  });

  it('every documented admin and partner operation answers 401, as documented, without a token', async () => {
    for (const [path, method, op] of operations) {
      if (!path.startsWith('/api/admin/') && !path.startsWith('/api/partner/')) continue;
      const answer = await rest<f.Envelope>(method.toUpperCase(), concrete(path), {
        body: op.requestBody ? validBodyFor(path) : undefined,
      });
      expect(answer.status, `${method} ${path}: ${JSON.stringify(answer.body)}`).toBe(401);
      expect(documentedPath(concrete(path))).toBe(path);
    }
  });

  it('every admin and partner operation answers as documented for a missing resource', async () => {
    for (const [path, method, op] of operations) {
      if (!path.includes('{')) continue;
      const token = path.startsWith('/api/partner/') ? partner : admin;
      const answer = await rest<f.Envelope>(method.toUpperCase(), concrete(path), {
        token,
        body: op.requestBody ? validBodyFor(path) : undefined,
      });
      expect(answer.status, `${method} ${path}: ${JSON.stringify(answer.body)}`).toBe(404);
    }
  });

  it('a body with an unknown field is a 400 INVALID_REQUEST naming it, before anything else', async () => {
    for (const [path, method, op] of operations) {
      const schema = op.requestBody?.content['application/json']?.schema;
      if (!schema || (!path.startsWith('/api/admin/') && !path.startsWith('/api/partner/')))
        continue;
      const answer = await rest<f.Envelope>(method.toUpperCase(), concrete(path), {
        body: { ...validBodyFor(path), surprise: 1 },
      });
      expect(answer.status, `${method} ${path}`).toBe(400);
      expect(answer.body.error.code).toBe('INVALID_REQUEST');
      expect(answer.body.error.message).toContain('surprise');
    }
  });

  // Business verification's answers are checked in business-verify.test.ts (each test there
  // speaks from an address of its own: the limit is per client address, 127.0.0.1 is shared).
  it('the webhook refuses an unsigned delivery as documented', async () => {
    const unsigned = await rest<f.Envelope>('POST', '/api/webhooks/tax-invoice', { body: {} });
    expect(unsigned.status).toBe(401);
    expect(unsigned.body.error.code).toBe('WEBHOOK_SIGNATURE_INVALID');
  });
});

/** A body each path's schema accepts (so only the path's resource is wrong). */
function validBodyFor(path: string): Record<string, unknown> {
  if (path.endsWith('/status') && path.includes('quotation')) return { status: 'SENT' };
  if (path.endsWith('/status')) return { status: 'SETTLEMENT_CANCELLED' };
  if (path.endsWith('/type')) return { settlementType: 'DIRECT_INVOICE' };
  if (path === '/api/admin/agencies')
    return {
      name: 'OpenAPI check',
      code: 'openapi-check',
      businessName: 'OpenAPI check',
      businessNumber: '1018623450',
      representativeName: 'Kim',
      bankName: 'Kakao Bank',
      accountNumber: '3333-01-1234567',
      accountHolder: 'OpenAPI check',
      email: 'openapi@example.com',
    };
  if (path.startsWith('/api/admin/agencies')) return { name: 'Renamed' };
  if (path.startsWith('/api/admin/quotation'))
    return {
      advertiserId: 999999999,
      title: 'OpenAPI check',
      validUntil: '2030-01-01',
      lines: [{ partnerId: 999999999, deliverable: 'one post', price: '1000.00' }],
    };
  return {};
}

import { describe, expect, it } from 'vitest';
import { documentedRoutes, toOpenApiPath } from './openapi-settlement.js';
import { settlementDocument, withDocumentedBodies } from './openapi-settlement-served.js';
import type { Route } from './route.js';

const routes = withDocumentedBodies(documentedRoutes);
const route = (method: string, path: string): Route<never> => {
  const found = routes.find((r) => r.method === method && r.path === path);
  if (!found) throw new Error(`no route ${method} ${path}`);
  return found;
};
const check = (method: string, path: string, body: unknown) =>
  route(method, path).validateBody?.(body) ?? null;

describe('settlement request bodies checked with the published OpenAPI document', () => {
  it('documents every route of the table, at its OpenAPI path', () => {
    const paths = settlementDocument()['paths'] as Record<string, Record<string, unknown>>;
    for (const r of documentedRoutes) {
      expect(paths[toOpenApiPath(r.path)]?.[r.method.toLowerCase()], r.path).toBeDefined();
    }
  });

  it('accepts what GraphQL accepts', () => {
    const status = '/api/admin/settlements/:id/status';
    expect(check('PATCH', status, { status: 'SETTLEMENT_CANCELLED', reason: null })).toBeNull();
    expect(check('POST', '/api/admin/settlements/:id/cancel', undefined)).toBeNull();
    expect(check('POST', '/api/admin/settlements/:id/cancel', null)).toBeNull();
    const line = { partnerId: 1, deliverable: 'post', price: '10.00', commissionRate: null };
    const quotation = { advertiserId: 1, title: 't', validUntil: '2030-01-01', lines: [line] };
    expect(check('POST', '/api/admin/quotation', quotation)).toBeNull();
  });

  it.each([
    [
      'PATCH',
      '/api/admin/settlements/:id/status',
      undefined,
      "must have required property 'status'",
    ],
    [
      'PATCH',
      '/api/admin/settlements/:id/status',
      { status: 'PAID' },
      'body.status: must be equal to one of the allowed values',
    ],
    [
      'PATCH',
      '/api/admin/settlements/:id/status',
      [{ status: 'SETTLEMENT_CANCELLED' }],
      'body: must be object',
    ],
    ['POST', '/api/admin/settlements/:id/cancel', { why: 'x' }, 'body: unknown property "why"'],
    [
      'POST',
      '/api/admin/settlements/:id/cancel',
      { reason: 5 },
      'body.reason: must be string,null',
    ],
    [
      'POST',
      '/api/admin/quotation',
      {
        advertiserId: 1,
        title: 't',
        validUntil: '2027-01-01',
        lines: [{ partnerId: 1, deliverable: 'd', price: 10 }],
      },
      'body.lines[0].price: must be string',
    ],
  ])('%s %s %j → 400 INVALID_REQUEST', (method, path, body, message) => {
    const problem = check(method, path, body);
    expect(problem?.status).toBe(400);
    expect(problem?.body.code).toBe('INVALID_REQUEST');
    expect(problem?.body.message).toContain(message);
  });

  it('leaves the webhook, business verification and lens bodies to their own checks', () => {
    expect(route('POST', '/api/webhooks/tax-invoice').validateBody).toBeUndefined();
    expect(route('POST', '/api/public/business/verify').validateBody).toBeUndefined();
  });
});

import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { newSettlement, useCast } from '../settlement/support.js';
import { keyArgs, useCli } from '../support/cli.js';
import { rest } from '../support/clients.js';
import { rawRequest } from '../support/raw-http.js';

/**
 * Issue 9, item 8: every REST answer says `X-Content-Type-Options: nosniff`, and every answer
 * that can carry account data, bank details or tokens says `Cache-Control: no-store` (all of
 * /api/* except the public OpenAPI document), successes, errors and 404s alike.
 */

const expectSafe = (label: string, headers: { get(name: string): string | null }) => {
  expect(headers.get('x-content-type-options'), label).toBe('nosniff');
  expect(headers.get('cache-control'), label).toBe('no-store');
};

describe('security headers of the REST adapter', () => {
  const ctx = useCast('INDIVIDUAL');
  const keys = useCli({ key: keyArgs('--credits', '100') });
  let settlementId: string;

  beforeAll(async () => {
    settlementId = await newSettlement(ctx.admin, ctx.ids);
  });

  const lens = (body: unknown, token?: string) =>
    rest('POST', '/api/lens/v1/accounts/profile', {
      ...(token ? { token } : {}),
      body,
      headers: { 'idempotency-key': randomUUID() },
    });

  it('lens: success, bad input, no credential, status look-up', async () => {
    // slow_ always outlasts the test stack's sync budget: a 202, then the status look-up's 200.
    const accepted = await lens({ accountRef: { handle: 'slow_headers.check' } }, keys.key);
    expect(accepted.status).toBe(202);
    expectSafe('lens 202', accepted.headers);
    const operationId = (accepted.body as { data: { operationId: string } }).data.operationId;
    const status = await rest('GET', `/api/lens/v1/operations/${operationId}`, { token: keys.key });
    expect(status.status).toBe(200);
    expectSafe('lens status 200', status.headers);
    const bad = await lens({ nope: 1 }, keys.key);
    expect(bad.status).toBe(400);
    expectSafe('lens 400', bad.headers);
    const anonymous = await lens({ accountRef: { handle: 'headers.check' } });
    expect(anonymous.status).toBe(401);
    expectSafe('lens 401', anonymous.headers);
    const missing = await rest('GET', `/api/lens/v1/operations/${randomUUID()}`, {
      token: keys.key,
    });
    expect(missing.status).toBe(404);
    expectSafe('lens 404', missing.headers);
  });

  it('admin and partner: success and errors', async () => {
    const calls: [string, string, string | undefined, number][] = [
      ['admin 200', `/api/admin/settlements/${settlementId}`, ctx.admin, 200],
      ['admin list 200', '/api/admin/settlements?limit=1', ctx.admin, 200],
      ['admin 404', '/api/admin/settlements/SET999999999', ctx.admin, 404],
      ['admin 401', `/api/admin/settlements/${settlementId}`, undefined, 401],
      ['admin 400', '/api/admin/settlements?limit=0', ctx.admin, 400],
      ['partner 200', `/api/partner/settlements/${settlementId}`, ctx.partner, 200],
      ['partner summary 200', '/api/partner/settlements/summary', ctx.partner, 200],
      ['partner 403/404', '/api/admin/settlements?limit=1', ctx.partner, 403],
    ];
    for (const [label, path, token, status] of calls) {
      const response = await rest('GET', path, token ? { token } : {});
      expect(response.status, `${label}: ${JSON.stringify(response.body)}`).toBe(status);
      expectSafe(label, response.headers);
    }
    const bad = await rest('PATCH', `/api/admin/settlements/${settlementId}/status`, {
      token: ctx.admin,
      body: '{"status":',
    });
    expect(bad.status).toBe(400);
    expectSafe('admin malformed JSON', bad.headers);
    const media = await rest('PATCH', `/api/admin/settlements/${settlementId}/status`, {
      token: ctx.admin,
      body: 'status=x',
      headers: { 'content-type': 'text/plain' },
    });
    expect(media.status).toBe(400);
    expectSafe('admin wrong media type', media.headers);
  });

  it('unknown paths, probes, the OpenAPI document and unparsable requests', async () => {
    for (const path of ['/api/nope', '/nope', '/api/lens/v1/accounts/nope']) {
      const response = await rest('GET', path);
      expect(response.status).toBe(404);
      expectSafe(path, response.headers);
    }
    const health = await rest('GET', '/healthz');
    expectSafe('healthz', health.headers);
    // The public document holds no account data and may be cached; it is still nosniff.
    const document = await rest('GET', '/api/lens/v1/openapi.json');
    expect(document.headers.get('x-content-type-options')).toBe('nosniff');
    expect(document.headers.get('cache-control')).toBe('public, max-age=300');
    // Refused by the HTTP parser itself (a NUL in a header value): the same headers.
    const raw = await rawRequest('GET', '/api/admin/settlements', [['X-Probe', 'a\u0000b']]);
    expect(raw.status).toBe(400);
    expect(raw.headers['x-content-type-options']).toBe('nosniff');
    expect(raw.headers['cache-control']).toBe('no-store');
  });
});

import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { rawRequest } from '../faults/support/raw.js';
import { keyArgs, useCli } from '../support/cli.js';
import { graphql, rest, stack } from '../support/clients.js';

/**
 * The HTTP request itself, answered as HTTP says (issue 21): a 401 that names how to
 * authenticate, a 405 with Allow for a known path asked with another method (before any
 * credential), a body problem described as what it is, and 431 for oversized headers on every
 * service. Raw sockets where fetch would refuse to send the request (a GET body, an unknown
 * method, 20 KiB of headers).
 */

const BEARER = 'Bearer realm="campaign-platform"';
const INVALID_TOKEN = 'Bearer realm="campaign-platform", error="invalid_token"';
const PROFILE = '/api/lens/v1/accounts/profile';
const profileBody = { accountRef: { handle: 'minji.daily' } };

const errorOf = (body: unknown) => (body as { error?: Record<string, unknown> }).error;

describe('WWW-Authenticate on every 401 (issue 21, item 5)', () => {
  const keys = useCli({ mcpToken: keyArgs('--kind', 'mcp') });

  it('admin and partner paths: the realm, plus invalid_token when a token was sent', async () => {
    for (const path of ['/api/admin/settlements', '/api/partner/settlements']) {
      const none = await rest('GET', path);
      expect(none.status).toBe(401);
      expect(none.headers.get('www-authenticate')).toBe(BEARER);
      const bad = await rest('GET', path, { token: 'not-a-jwt' });
      expect(bad.status).toBe(401);
      expect(bad.headers.get('www-authenticate')).toBe(INVALID_TOKEN);
    }
  });

  it('lens: no key, an unknown key, a tool-protocol token', async () => {
    const call = (token?: string) =>
      rest('POST', PROFILE, {
        body: profileBody,
        headers: { 'idempotency-key': randomUUID() },
        ...(token ? { token } : {}),
      });
    const none = await call();
    expect([none.status, none.headers.get('www-authenticate')]).toEqual([401, BEARER]);
    for (const token of ['lk_live_unknown', keys.mcpToken]) {
      const refused = await call(token);
      expect([refused.status, refused.headers.get('www-authenticate')]).toEqual([
        401,
        INVALID_TOKEN,
      ]);
    }
  });

  it('the tax-invoice webhook names its own scheme, not Bearer', async () => {
    const refused = await rest('POST', '/api/webhooks/tax-invoice', { body: { eventId: 'e' } });
    expect(refused.status).toBe(401);
    expect(errorOf(refused.body)?.['code']).toBe('WEBHOOK_SIGNATURE_INVALID');
    expect(refused.headers.get('www-authenticate')).toMatch(
      /^Signature realm="[^"]+", header="X-Signature"/,
    );
  });

  it('GraphQL keeps reporting a refused token as an error with its catalogue code', async () => {
    const result = await graphql('{ settlements { total } }', {}, 'not-a-jwt');
    expect(result.errors?.[0]?.extensions?.['code']).toBe('UNAUTHENTICATED');
  });
});

describe('wrong method, wrong body (issue 21, item 6)', () => {
  const raw = (method: string, path: string, headers: [string, string][] = [], body?: string) =>
    rawRequest(
      stack().rest,
      method,
      path,
      headers,
      body === undefined ? undefined : Buffer.from(body),
    );

  it('a known path with another method: 405 with Allow, before the credential', async () => {
    for (const [method, path, allow] of [
      ['PUT', '/api/admin/settlements', 'GET, HEAD'],
      ['DELETE', PROFILE, 'POST'],
      ['GET', '/api/admin/settlements/SET1/status', 'PATCH'],
      ['POST', '/api/openapi.json', 'GET, HEAD'],
      ['OPTIONS', '/api/admin/agencies/7', 'GET, HEAD, PUT, DELETE'],
      ['QUERY', '/api/admin/settlements', 'GET, HEAD'],
      ['PROPFIND', '/api/public/business/verify', 'POST'],
    ] as const) {
      const answer = await raw(method, path, [['Authorization', 'Bearer not-a-jwt']]);
      expect(answer.status, `${method} ${path}`).toBe(405);
      expect(answer.headers['allow'], `${method} ${path}`).toBe(allow);
      expect(errorOf(answer.body)).toMatchObject({
        code: 'METHOD_NOT_ALLOWED',
        httpStatus: 405,
        retryable: false,
      });
      expect(answer.headers['www-authenticate']).toBeUndefined();
    }
    // Even a body that would not parse does not come first.
    const withBody = await raw('PUT', PROFILE, [['Content-Type', 'application/json']], '{');
    expect(withBody.status).toBe(405);
  });

  it('a method HTTP does not know: 405 with Allow on a known path, 400 elsewhere', async () => {
    const known = await raw('FROBNICATE', '/api/admin/settlements');
    expect(known.status).toBe(405);
    expect(known.headers['allow']).toBe('GET, HEAD');
    const unknown = await raw('FROBNICATE', '/nowhere');
    expect(unknown.status).toBe(400);
    expect(errorOf(unknown.body)?.['message']).toMatch(/FROBNICATE is not an HTTP method/);
  });

  it('an unknown path stays a 404', async () => {
    const answer = await raw('PUT', '/api/admin/nothing-here');
    expect(answer.status).toBe(404);
    expect(errorOf(answer.body)?.['code']).toBe('NOT_FOUND');
  });

  it('a body with a method that takes none is refused as such', async () => {
    for (const [method, path, type] of [
      ['GET', '/api/admin/settlements', 'application/json'],
      ['DELETE', '/api/admin/agencies/7', 'text/plain'],
    ] as const) {
      const answer = await raw(method, path, [['Content-Type', type]], '{"x": 1}');
      expect(answer.status, method).toBe(400);
      expect(errorOf(answer.body)?.['message']).toBe(
        `${method} ${path} takes no request body; send none.`,
      );
    }
  });

  it('a body of another type says so, not "not valid JSON"', async () => {
    const answer = await raw('POST', PROFILE, [['Content-Type', 'text/plain']], 'hello');
    expect(answer.status).toBe(400);
    const message = String(errorOf(answer.body)?.['message']);
    expect(message).toMatch(/must be JSON \(Content-Type: application\/json\), not text\/plain/);
    expect(message).not.toMatch(/not valid JSON/);
  });
});

describe('oversized request headers: 431 on every service (issue 21, item 7)', () => {
  it('REST adapter, gateway and both subgraphs answer 431 with the catalogue body', async () => {
    const big: [string, string][] = [['X-Padding', 'a'.repeat(20_000)]];
    for (const url of [stack().rest, stack().gateway, stack().lens, stack().settlement]) {
      const answer = await rawRequest(new URL(url).origin, 'GET', '/healthz', big);
      expect(answer.status, url).toBe(431);
      expect(answer.body, url).toEqual({
        success: false,
        error: {
          code: 'REQUEST_HEADERS_TOO_LARGE',
          message: expect.any(String),
          httpStatus: 431,
          retryable: false,
        },
      });
    }
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectSql, freePort, type ServiceProcess, type Sql } from '@campaign/stack';
import { startBeside } from '../support/beside.js';
import { graphql, rest, stack, type HttpResult } from '../support/clients.js';
import { expectRateLimitHeaders } from '../support/rate-limited.js';
import { assertDocumented } from '../support/settlement-openapi.js';

/**
 * Public business verification (specification 4.6, DESIGN.md S12 and section 5) through the real
 * adapter, gateway, settlement subgraph and the simulated tax authority.
 *
 * The limit is 30 requests per client address per 15 minutes, so each test speaks from an address
 * of its own: a second REST adapter with REST_TRUST_PROXY=true takes it from X-Forwarded-For. The
 * shared stack's adapter and direct GraphQL callers are all 127.0.0.1 (they ignore the header);
 * only the test of the shared counter uses that address, after clearing its count.
 */

const PATH = '/api/public/business/verify';
const QUERY = `query($n: String!) {
  verifyBusinessNumber(businessNumber: $n) { businessNumber registered status closedAt taxType } }`;

/** The check digit of DESIGN.md section 5, written here again as the oracle. */
function withCheckDigit(nine: string): string {
  const weights = [1, 3, 7, 1, 3, 7, 1, 3, 5];
  const digits = [...nine].map(Number);
  const sum =
    digits.reduce((total, d, i) => total + d * weights[i]!, 0) + Math.floor((digits[8]! * 5) / 10);
  return `${nine}${(10 - (sum % 10)) % 10}`;
}

/** Nine digits unique to this run whose 6th digit is `sixth` (the simulator decides by it). */
let serial = 0;
function numberWithSixth(sixth: number): string {
  const tail = String((Date.now() + ++serial) % 1000).padStart(3, '0');
  return withCheckDigit(
    `${String(100 + (process.pid % 900))}${String(serial % 100).padStart(2, '0')}${sixth}${tail}`,
  );
}

let trusting: ServiceProcess;
let trustingUrl: string;
let settlementSql: Sql;
let lastAddress = 0;
/** A client address no other test uses (TEST-NET-3). */
const newAddress = () => `203.0.113.${++lastAddress}`;

async function post(
  base: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<HttpResult> {
  const response = await fetch(`${base}${PATH}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  const answer = JSON.parse(text) as Record<string, unknown>;
  // Either adapter answers as the published document says (test/support/settlement-openapi.ts).
  assertDocumented('POST', PATH, response.status, response.headers.get('content-type'), answer);
  return { status: response.status, headers: response.headers, body: answer };
}

/** A verification from `address`, through the adapter that trusts X-Forwarded-For. */
const verifyFrom = (address: string, body: unknown) =>
  post(trustingUrl, body, { 'x-forwarded-for': address });

/** Every b_no list the simulated tax authority has received. */
async function authorityReceived(): Promise<string[]> {
  const response = await fetch(`${stack().taxAuthority}/_sim/requests`);
  const received = (await response.json()) as { b_no: unknown }[];
  return received.flatMap((r) => (Array.isArray(r.b_no) ? r.b_no.map(String) : []));
}

beforeAll(async () => {
  const port = await freePort();
  trustingUrl = `http://127.0.0.1:${port}`;
  [trusting, settlementSql] = await Promise.all([
    startBeside('rest', 'rest adapter (trusts X-Forwarded-For)', port, {
      REST_TRUST_PROXY: 'true',
      LOG_LEVEL: 'fatal',
    }),
    connectSql(stack().settlementDatabase),
  ]);
});

afterAll(async () => {
  await Promise.all([trusting?.stop(), settlementSql?.end()]);
});

describe('POST /api/public/business/verify: the answer', () => {
  it('answers each status of the tax authority, in the documented shape', async () => {
    const address = newAddress();
    const active = numberWithSixth(0);
    const suspended = numberWithSixth(8);
    const closed = numberWithSixth(9);
    const unregistered = numberWithSixth(7);

    const answer = await verifyFrom(address, { businessNumber: active });
    expect(answer.status).toBe(200);
    expect(Object.keys(answer.body)).toEqual(['success', 'data']);
    expect(answer.body['success']).toBe(true);
    const data = answer.body['data'] as Record<string, unknown>;
    expect(Object.keys(data)).toEqual([
      'businessNumber',
      'registered',
      'status',
      'closedAt',
      'taxType',
    ]);
    expect(data).toMatchObject({
      businessNumber: active,
      registered: true,
      status: 'ACTIVE',
      closedAt: null,
    });
    expect(data['taxType']).toMatch(/^부가가치세 (일반|간이)과세자$/);

    expect((await verifyFrom(address, { businessNumber: suspended })).body['data']).toMatchObject({
      businessNumber: suspended,
      registered: true,
      status: 'SUSPENDED',
      closedAt: null,
    });
    const closedData = (await verifyFrom(address, { businessNumber: closed })).body[
      'data'
    ] as Record<string, unknown>;
    expect(closedData).toMatchObject({
      businessNumber: closed,
      registered: true,
      status: 'CLOSED',
    });
    expect(closedData['closedAt']).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(typeof closedData['taxType']).toBe('string');
    expect((await verifyFrom(address, { businessNumber: unregistered })).body).toEqual({
      success: true,
      data: {
        businessNumber: unregistered,
        registered: false,
        status: null,
        closedAt: null,
        taxType: null,
      },
    });
  });

  it('takes the dashed form and answers with the 10 digits', async () => {
    const digits = numberWithSixth(1);
    const dashed = `${digits.slice(0, 3)}-${digits.slice(3, 5)}-${digits.slice(5)}`;
    const answer = await verifyFrom(newAddress(), { businessNumber: dashed });
    expect(answer.status).toBe(200);
    expect(answer.body['data']).toMatchObject({ businessNumber: digits, status: 'ACTIVE' });
    expect(await authorityReceived()).toContain(digits);
  });

  it('a bad format or check digit is 400 INVALID_BUSINESS_NUMBER, and nothing is asked', async () => {
    const address = newAddress();
    const good = numberWithSixth(2);
    const wrongDigit = `${good.slice(0, 9)}${(Number(good[9]) + 1) % 10}`;
    const bodies = [
      { businessNumber: wrongDigit },
      { businessNumber: good.slice(0, 9) },
      { businessNumber: `${good.slice(0, 3)}-${good.slice(3)}` },
      { businessNumber: `${good}0` },
      { businessNumber: Number(good) },
      { number: good },
      [good],
    ];
    for (const body of bodies) {
      const answer = await verifyFrom(address, body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body['error']).toMatchObject({
        code: 'INVALID_BUSINESS_NUMBER',
        httpStatus: 400,
        retryable: false,
      });
    }
    const received = await authorityReceived();
    for (const sent of [wrongDigit, good, good.slice(0, 9), `${good}0`])
      expect(received).not.toContain(sent);
  });

  it('the authority down is 503 PROVIDER_UNAVAILABLE, retryable, with Retry-After', async () => {
    const address = newAddress();
    const number = numberWithSixth(3);
    await fetch(`${stack().taxAuthority}/_sim/fail-next`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ count: 1 }),
    });
    const down = await verifyFrom(address, { businessNumber: number });
    expect(down.status).toBe(503);
    expect(down.body['error']).toMatchObject({ code: 'PROVIDER_UNAVAILABLE', retryable: true });
    expect(down.headers.get('retry-after')).toBe('5');
    const again = await verifyFrom(address, { businessNumber: number });
    expect(again.status).toBe(200);
  });
});

describe('30 requests per client address per 15 minutes', () => {
  it('the 31st is 429 with Retry-After, RateLimit-Policy and RateLimit; bad input counts', async () => {
    const address = newAddress();
    const number = numberWithSixth(4);
    for (let i = 0; i < 30; i++) {
      const body = { businessNumber: i % 3 === 0 ? 'not a number' : number };
      expect((await verifyFrom(address, body)).status).toBe(i % 3 === 0 ? 400 : 200);
    }
    const refused = await verifyFrom(address, { businessNumber: number });
    expect(refused.status).toBe(429);
    expect(refused.body['error']).toMatchObject({ code: 'RATE_LIMITED', retryable: true });
    expectRateLimitHeaders(refused.headers, { limit: 30, windowS: 900 }, 801);
    // Another address is not affected.
    expect((await verifyFrom(newAddress(), { businessNumber: number })).status).toBe(200);
  });

  it('REST and GraphQL share one counter; X-Forwarded-For is ignored unless trusted', async () => {
    // The shared adapter and direct GraphQL callers are this machine: start its count afresh.
    await settlementSql.query(
      `delete from rate_limit_window
        where bucket in ('business_verify:127.0.0.1', 'business_verify:::ffff:127.0.0.1')`,
    );
    const number = numberWithSixth(5);
    const spoofed = (i: number) => ({ 'x-forwarded-for': `198.51.100.${i + 1}` });
    for (let i = 0; i < 15; i++) {
      const answer = await post(stack().rest, { businessNumber: number }, spoofed(i));
      expect(answer.status).toBe(200);
      const response = await fetch(stack().gateway, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...spoofed(100 + i) },
        body: JSON.stringify({ query: QUERY, variables: { n: number } }),
      });
      const result = (await response.json()) as { data?: unknown; errors?: unknown };
      expect(result.errors).toBeUndefined();
    }
    // 30 counted for 127.0.0.1 whatever the header said: the 31st is refused on both paths.
    const overGraphQL = await graphql(QUERY, { n: number });
    expect(overGraphQL.errors?.[0]?.extensions).toMatchObject({
      code: 'RATE_LIMITED',
      retryable: true,
      rateLimitPolicy: '30;w=900',
    });
    const overRest = await rest('POST', PATH, {
      body: { businessNumber: number },
      headers: spoofed(200),
    });
    expect(overRest.status).toBe(429);
    expect(overRest.headers.get('ratelimit-policy')).toBe('30;w=900');
    expect(overRest.headers.get('retry-after')).toMatch(/^\d+$/);
    // No spoofed address was ever counted ...
    const [counted] = await settlementSql.query<{ n: number }>(
      `select count(*)::int as n from rate_limit_window where bucket like 'business_verify:198.51.100.%'`,
    );
    expect(counted!.n).toBe(0);
    // ... and behind a trusted proxy the header is the address.
    expect((await verifyFrom('198.51.100.250', { businessNumber: number })).status).toBe(200);
  });
});

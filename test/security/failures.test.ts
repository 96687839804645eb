import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectSql, type Sql } from '@campaign/stack';
import { freePort } from '@campaign/stack';
import { startService, type ServiceProcess } from '@campaign/stack';
import { startBeside } from '../support/beside.js';
import { cli } from '../support/cli.js';
import { codeOf, graphql, graphqlAt, lensProfile, rest, stack } from '../support/clients.js';
import { overLimitQueries } from '../support/graphql-limits.js';
import { adminToken, createAdvertiser, createPartner } from '../settlement/support.js';

/**
 * Unexpected errors are masked, outages are 503s that say so, and a query's shape is limited
 * before it costs anything. A second gateway and REST adapter (the shared stack stays whole) point
 * their lens subgraph at a socket this test controls.
 */
describe('unexpected errors never show SQL', () => {
  let lensSql: Sql;
  let settlementSql: Sql;
  let token: string;
  let apiKey: string;

  // A trigger that fails the way a broken statement does, only for rows this test marks: the
  // driver's message then holds the statement, as the probe saw.
  beforeAll(async () => {
    [lensSql, settlementSql, token, apiKey] = await Promise.all([
      connectSql(stack().lensDatabase),
      connectSql(stack().settlementDatabase),
      adminToken(),
      cli('lens:create-key', '--credits', '100'),
    ]);
    const fail = (column: string) => `create or replace function mask_probe() returns trigger
      language plpgsql as $$ begin
        if new.${column} like 'mask-probe%' then raise exception 'probe failure in insert'; end if;
        return new; end $$`;
    await lensSql.query(fail('idempotency_key'));
    await lensSql.query(
      'create trigger mask_probe before insert on operation for each row execute function mask_probe()',
    );
    await settlementSql.query(fail('title'));
    await settlementSql.query(
      'create trigger mask_probe before insert on campaign for each row execute function mask_probe()',
    );
  });

  afterAll(async () => {
    await lensSql?.query('drop trigger if exists mask_probe on operation');
    await settlementSql?.query('drop trigger if exists mask_probe on campaign');
    await Promise.all([lensSql?.end(), settlementSql?.end()]);
  });

  const expectMasked = (text: string) => {
    expect(text).not.toMatch(/insert into|select |tenant_id|"campaign"|probe failure/i);
    expect(text).toContain('request id');
  };

  it('GraphQL: a failing insert answers INTERNAL_ERROR with no statement in it', async () => {
    const partnerId = await createPartner(token, 'INDIVIDUAL');
    const advertiserId = await createAdvertiser(token);
    const result = await graphql(
      'mutation($input: CreateCampaignInput!) { createCampaign(input: $input) { id } }',
      { input: { partnerId, advertiserId, title: 'mask-probe campaign', price: '1000.00' } },
      token,
    );
    expect(codeOf(result)).toBe('INTERNAL_ERROR');
    expectMasked(JSON.stringify(result.errors));
  });

  it('REST: the same for a lens call, 500 INTERNAL_ERROR, nothing of the SQL', async () => {
    const response = await rest('POST', '/api/lens/v1/accounts/profile', {
      token: apiKey,
      headers: { 'idempotency-key': `mask-probe-${randomUUID()}` },
      body: { accountRef: { handle: 'masked.error' } },
    });
    expect(response.status).toBe(500);
    expect((response.body['error'] as { code: string }).code).toBe('INTERNAL_ERROR');
    expectMasked(JSON.stringify(response.body));
  });
});

describe('outages and query limits, on a gateway whose lens subgraph this test controls', () => {
  let fakeLens: Server;
  let fakeLensPort: number;
  let lensRequests = 0;
  let gateway: ServiceProcess;
  let adapter: ServiceProcess;
  let gatewayUrl: string;
  let restUrl: string;
  let apiKey: string;

  beforeAll(async () => {
    const [gatewayPort, restPort] = await Promise.all([freePort(), freePort()]);
    fakeLensPort = await freePort();
    // Counts what reaches "lens", then drops the connection: a subgraph dying mid-request.
    fakeLens = createServer((request) => {
      lensRequests++;
      request.socket.destroy();
    });
    await new Promise<void>((resolve) => fakeLens.listen(fakeLensPort, '127.0.0.1', resolve));
    gatewayUrl = `http://127.0.0.1:${gatewayPort}/graphql`;
    restUrl = `http://127.0.0.1:${restPort}`;
    gateway = await startService(
      {
        name: 'gateway (controlled lens)',
        main: 'gateway/src/main.ts',
        env: {
          GATEWAY_PORT: String(gatewayPort),
          LENS_SUBGRAPH_URL: `http://127.0.0.1:${fakeLensPort}/graphql`,
          SETTLEMENT_SUBGRAPH_URL: stack().settlement,
          GATEWAY_INTROSPECTION: 'false',
          LOG_LEVEL: 'fatal',
        },
      },
      'ignore',
    );
    // The adapter's own gateway engine (issue 27) on the same controlled lens.
    adapter = await startBeside('rest', 'rest adapter (controlled lens)', restPort, {
      LENS_SUBGRAPH_URL: `http://127.0.0.1:${fakeLensPort}/graphql`,
      LOG_LEVEL: 'fatal',
    });
    apiKey = await cli('lens:create-key', '--credits', '100');
  });

  afterAll(async () => {
    await adapter?.stop();
    await gateway?.stop();
    fakeLens?.close();
  });

  const ask = (query: string, token?: string) => graphqlAt<unknown>(gatewayUrl, query, {}, token);
  const lensCall = () => lensProfile(restUrl, apiKey, 'outage.probe');

  it('refuses deep, wide, long, directive-heavy and costly queries without calling a subgraph', async () => {
    const token = await adminToken();
    // Every refused query would reach lens (Partner.account) if it ran.
    const queries = overLimitQueries();
    const before = lensRequests;
    for (const [limit, query] of Object.entries(queries)) {
      const result = await ask(query, token);
      expect(codeOf(result), `${limit}: ${JSON.stringify(result.errors)}`).toBe(
        'GRAPHQL_VALIDATION_FAILED',
      );
      expect(JSON.stringify(result.errors).toLowerCase(), limit).toContain(
        {
          depth: 'depth',
          aliases: 'aliases',
          tokens: 'token',
          directives: 'directives',
          cost: 'cost',
        }[limit],
      );
      expect(result.data ?? null, limit).toBeNull();
    }
    expect(lensRequests).toBe(before);
    // The same gateway does call lens for a query inside the limits: the count above is real.
    await ask('{ account(accountId: "1") { handle } }', token);
    expect(lensRequests).toBe(before + 1);
  });

  it('gives no field suggestions when introspection is off', async () => {
    const result = await ask('{ settlemen(id: "SET1") { id } }', await adminToken());
    expect(codeOf(result)).toBe('GRAPHQL_VALIDATION_FAILED');
    expect(JSON.stringify(result.errors)).not.toMatch(/Did you mean/i);
  });

  it('a subgraph that drops the request: 503, retryable, Retry-After, outcome unknown', async () => {
    const response = await lensCall();
    expect(response.status).toBe(503);
    expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
    const body = (await response.json()) as { error: Record<string, unknown> };
    expect(body.error).toMatchObject({ code: 'SERVICE_UNAVAILABLE', retryable: true });
    expect(String(body.error['message'])).toContain('Idempotency-Key');
  });

  it('a subgraph that is down: 503 SERVICE_UNAVAILABLE; the settlement side still answers', async () => {
    await new Promise<void>((resolve) => fakeLens.close(() => resolve()));
    const response = await lensCall();
    expect(response.status).toBe(503);
    expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
    const body = (await response.json()) as { error: Record<string, unknown> };
    expect(body.error).toMatchObject({ code: 'SERVICE_UNAVAILABLE', retryable: true });
    expect(JSON.stringify(body)).not.toMatch(/ECONNREFUSED|127\.0\.0\.1/);
    const settlement = await fetch(`${restUrl}/api/admin/settlements/SET1`, {
      headers: { authorization: `Bearer ${await adminToken()}` },
    });
    expect(settlement.status).toBe(200);
  });

  it('no subgraph reachable: the REST adapter answers 503 with Retry-After and is not ready', async () => {
    // The adapter runs its gateway engine in its own process (issue 27): there is no gateway
    // hop to lose, only the subgraphs behind it.
    const [restPort, closedPort] = await Promise.all([freePort(), freePort()]);
    const closed = `http://127.0.0.1:${closedPort}/graphql`;
    const lonely = await startBeside('rest', 'rest adapter (no subgraphs)', restPort, {
      LENS_SUBGRAPH_URL: closed,
      SETTLEMENT_SUBGRAPH_URL: closed,
      LOG_LEVEL: 'fatal',
    });
    try {
      const response = await fetch(`http://127.0.0.1:${restPort}/api/admin/settlements/SET1`, {
        headers: { authorization: `Bearer ${await adminToken()}` },
      });
      expect(response.status).toBe(503);
      expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
      const body = (await response.json()) as { error: Record<string, unknown> };
      expect(body.error).toMatchObject({ code: 'SERVICE_UNAVAILABLE', retryable: true });
      const ready = await fetch(`http://127.0.0.1:${restPort}/readyz`);
      expect(ready.status).toBe(503);
    } finally {
      await lonely.stop();
    }
  });

  it('the gateway sends nosniff, no-store and refuses to be framed', async () => {
    for (const response of [
      await fetch(gatewayUrl, { headers: { accept: 'text/html' } }),
      await fetch(stack().gateway, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: '{ __typename }' }),
      }),
    ]) {
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(response.headers.get('x-frame-options')).toBe('DENY');
      expect(response.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
      expect(response.headers.get('cache-control')).toBe('no-store');
    }
  });
});

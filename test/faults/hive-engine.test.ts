import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { graphqlAt, type GraphQLResult } from '../support/clients.js';
import { overLimitQueries } from '../support/graphql-limits.js';
import { call, cli, faults, type Answer } from './support/fault-stack.js';
import { rawRequest } from './support/raw.js';
import { newParty, newSettlement, type Party } from './support/settlement-load.js';

/**
 * Issue 16: the same schema/supergraph.graphql on a second federation engine
 * (`GATEWAY_ENGINE=hive`: @graphql-hive/gateway-runtime). Every case below is sent to both
 * engines, each behind its own REST adapter, and must give the same answer: federation joins,
 * authentication and roles, the GraphQL limits and the error catalogue. That any subgraph answers
 * the Hive gateway at all shows it sends the subgraph secret.
 */
type GraphQLAnswer = GraphQLResult<unknown>;

const engines = () => ({ apollo: faults().urls, hive: faults().hive });

const ask = (gateway: string, query: string, token?: string): Promise<GraphQLAnswer> =>
  graphqlAt(gateway, query, {}, token);

const codeOf = (answer: GraphQLAnswer) => answer.errors?.[0]?.extensions?.['code'];

let party: Party;
let admin: string;
let settlementId: string;
let key: string;

beforeAll(async () => {
  party = await newParty(faults().urls.gateway);
  admin = party.admin;
  key = await cli('lens:create-key', '--credits', '100', '--rate-limit', '100000');
  // A partner whose social account lens has observed: Partner.account crosses to lens.
  const profile = await call<{ data: { data: { accountId: string } } }>(
    faults().urls.rest,
    'POST',
    '/api/lens/v1/accounts/profile',
    {
      token: key,
      body: { accountRef: { handle: 'hive.federation' } },
      headers: { 'idempotency-key': randomUUID() },
    },
  );
  expect(profile.status, JSON.stringify(profile.body)).toBe(200);
  const accountId = profile.body.data.data.accountId;
  const { gateway } = faults().urls;
  const response = await ask(
    gateway,
    `mutation { createPartner(input: { name: "Hive Partner", entityType: INDIVIDUAL,
      email: "hive@notify.example", bankName: "Kakao Bank", accountNumber: "3333-01-2222222",
      accountHolder: "Hive Holder", accountId: "${accountId}" }) { id } }`,
    admin,
  );
  const partnerId = (response.data as { createPartner: { id: number } }).createPartner.id;
  settlementId = await newSettlement(gateway, { ...party, partnerId });
});

describe('the supergraph on the Hive gateway', () => {
  it('federation: a settlement with its partner and the partner’s lens account, as Apollo gives it', async () => {
    const query = `{ settlement(id: "${settlementId}") { id status partner { name account { handle followerCount } } } }`;
    const apollo = await ask(engines().apollo.gateway, query, admin);
    const hive = await ask(engines().hive.gateway, query, admin);
    expect(apollo.errors).toBeUndefined();
    expect(hive).toEqual(apollo);
    expect(JSON.stringify(hive)).toContain('"handle":"hive.federation"');
  });

  it('auth: no token, a bad token and a partner on an admin query are refused alike', async () => {
    const query = `{ settlements(limit: 1) { total } }`;
    for (const token of [undefined, 'not-a-token', party.partner]) {
      const apollo = await ask(engines().apollo.gateway, query, token);
      const hive = await ask(engines().hive.gateway, query, token);
      expect(codeOf(apollo), JSON.stringify(apollo)).toBeDefined();
      expect(codeOf(hive), JSON.stringify(hive)).toBe(codeOf(apollo));
      expect(hive.data ?? null).toEqual(apollo.data ?? null);
    }
  });

  it('limits: deep, wide, long, directive-heavy and costly queries are refused by both', async () => {
    const queries = overLimitQueries();
    for (const [limit, query] of Object.entries(queries)) {
      const hive = await ask(engines().hive.gateway, query, admin);
      expect(hive.data ?? null, limit).toBeNull();
      expect(codeOf(hive), `${limit}: ${JSON.stringify(hive)}`).toBe('GRAPHQL_VALIDATION_FAILED');
      expect(JSON.stringify(hive.errors).toLowerCase(), limit).toContain(
        limit === 'tokens' ? 'token' : limit,
      );
    }
  });

  it('REST through either engine: the same statuses, bodies and catalogue codes', async () => {
    const cases: [
      string,
      string,
      { token?: string; body?: unknown; headers?: Record<string, string> },
    ][] = [
      ['GET', `/api/admin/settlements/${settlementId}`, { token: admin }],
      ['GET', '/api/admin/settlements/SET999999', { token: admin }],
      ['GET', `/api/admin/settlements/${settlementId}`, { token: party.partner }],
      ['GET', `/api/admin/settlements/${settlementId}`, {}],
      ['GET', '/api/admin/settlements?limit=0', { token: admin }],
      ['POST', '/api/public/business/verify', { body: { businessNumber: '123' } }],
      ['POST', '/api/lens/v1/accounts/profile', { token: key, body: { accountRef: {} } }],
      ['POST', '/api/lens/v1/accounts/profile', { body: { accountRef: { handle: 'x' } } }],
      ['GET', '/api/lens/v1/operations/00000000-0000-4000-8000-000000000000', { token: key }],
    ];
    const shape = (answer: Answer) => {
      const body = answer.body as {
        success?: boolean;
        error?: { code: string; httpStatus: number };
      };
      return {
        status: answer.status,
        success: body?.success,
        code: body?.error?.code,
        httpStatus: body?.error?.httpStatus,
      };
    };
    for (const [method, path, options] of cases) {
      const withKey = (o: typeof options) =>
        method === 'POST' && path.startsWith('/api/lens')
          ? { ...o, headers: { ...o.headers, 'idempotency-key': randomUUID() } }
          : o;
      const apollo = await call(engines().apollo.rest, method, path, withKey(options));
      const hive = await call(engines().hive.rest, method, path, withKey(options));
      expect(shape(hive), `${method} ${path}`).toEqual(shape(apollo));
      if (apollo.status === 200) expect(hive.body, path).toEqual(apollo.body);
    }
  });

  it('a billed lens call through the Hive engine executes once and answers the same envelope', async () => {
    const idempotencyKey = randomUUID();
    const send = (rest: string) =>
      call<{ data: { operationId: string; status: string } }>(
        rest,
        'POST',
        '/api/lens/v1/accounts/profile',
        {
          token: key,
          body: { accountRef: { handle: 'hive.billed' } },
          headers: { 'idempotency-key': idempotencyKey },
        },
      );
    const hive = await send(engines().hive.rest);
    const apollo = await send(engines().apollo.rest);
    expect(hive.status, JSON.stringify(hive.body)).toBe(200);
    expect(apollo.body.data.operationId).toBe(hive.body.data.operationId);
    expect(hive.headers.get('lens-observed-at')).toBe(apollo.headers.get('lens-observed-at'));
  });

  it('settlement Idempotency-Key through the Hive engine: the replay is marked on REST and GraphQL (issue 23)', async () => {
    const [viaRest, viaGraphql] = await Promise.all([
      newSettlement(faults().urls.gateway, party),
      newSettlement(faults().urls.gateway, party),
    ]);
    const idempotencyKey = randomUUID();
    const cancel = () =>
      call(engines().hive.rest, 'POST', `/api/admin/settlements/${viaRest}/cancel`, {
        token: admin,
        body: { reason: 'hive replay' },
        headers: { 'idempotency-key': idempotencyKey },
      });
    const first = await cancel();
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const again = await cancel();
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);

    const graphqlKey = randomUUID();
    const keyed = async () => {
      const response = await fetch(engines().hive.gateway, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          authorization: `Bearer ${admin}`,
          'idempotency-key': graphqlKey,
        },
        body: JSON.stringify({
          query: `mutation($id: ID!) { cancelSettlement(id: $id) { id status } }`,
          variables: { id: viaGraphql },
        }),
      });
      return { replayed: response.headers.get('idempotent-replayed'), body: await response.json() };
    };
    const once = await keyed();
    expect(once.body).toEqual({
      data: { cancelSettlement: { id: viaGraphql, status: 'SETTLEMENT_CANCELLED' } },
    });
    expect(once.replayed).toBeNull();
    const twice = await keyed();
    expect(twice).toEqual({ replayed: 'true', body: once.body });
  });

  it('oversized request headers: 431 with the catalogue body from either engine (issue 21)', async () => {
    for (const [engine, urls] of Object.entries(engines())) {
      const answer = await rawRequest(new URL(urls.gateway).origin, 'POST', '/graphql', [
        ['X-Padding', 'a'.repeat(20_000)],
      ]);
      expect(answer.status, engine).toBe(431);
      expect(answer.body, engine).toMatchObject({
        success: false,
        error: { code: 'REQUEST_HEADERS_TOO_LARGE', httpStatus: 431 },
      });
    }
  });
});

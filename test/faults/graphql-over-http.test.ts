import { auditServer } from 'graphql-http';
import { beforeAll, describe, expect, it } from 'vitest';
import { customScalarPlaces, replaced, type ScalarPlace } from '../support/scalar-arguments.js';
import { call, cli, faults } from './support/fault-stack.js';

/**
 * Issue 21 items 1 and 2, on both federation engines: GraphQL over HTTP as its reference audit
 * (`graphql-http`'s auditServer) checks it, request errors answered 400 or 200 by what the client
 * accepts and never 5xx, and a bad value of a custom scalar (a SafeInt id out of range, "abc")
 * anywhere a client can put one refused as the caller's error, never INTERNAL_ERROR.
 */
const engines = () => ({ apollo: faults().urls, hive: faults().hive });
const GRAPHQL_RESPONSE = 'application/graphql-response+json';

interface Answer {
  status: number;
  contentType: string;
  body: { data?: unknown; errors?: { message: string; extensions?: Record<string, unknown> }[] };
}

async function post(gateway: string, body: unknown, accept?: string, token?: string) {
  const response = await fetch(gateway, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(accept ? { accept } : {}),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return {
    status: response.status,
    contentType: response.headers.get('content-type') ?? '',
    body: (await response.json()) as Answer['body'],
  };
}

const codes = (answer: Answer) => answer.body.errors?.map((e) => e.extensions?.['code']);

let admin: string;
beforeAll(async () => {
  admin = await cli('auth:token', '--role', 'SUPER_ADMIN');
});

describe.each(['apollo', 'hive'] as const)('GraphQL over HTTP on the %s engine', (engine) => {
  const gateway = () => engines()[engine].gateway;

  it('passes the graphql-http audit with no failure and no warning', async () => {
    const results = await auditServer({ url: gateway() });
    const problems = results
      .filter((r) => r.status === 'error' || r.status === 'warn')
      .map((r) => `${r.status} ${r.id} ${r.name}: ${'reason' in r ? r.reason : ''}`);
    expect(problems).toEqual([]);
    expect(results.filter((r) => r.status === 'ok').length).toBeGreaterThan(20);
  }, 60_000);

  const requestErrors: [string, unknown, string][] = [
    ['a syntax error', { query: '{' }, 'GRAPHQL_PARSE_FAILED'],
    ['an unknown field', { query: '{ nope }' }, 'GRAPHQL_VALIDATION_FAILED'],
    [
      'a variable of the wrong type',
      { query: 'query($id: ID!) { settlement(id: $id) { id } }', variables: { id: {} } },
      'BAD_USER_INPUT',
    ],
    [
      'a missing variable',
      { query: 'query($id: ID!) { settlement(id: $id) { id } }' },
      'BAD_USER_INPUT',
    ],
    ['an unknown operation name', { query: 'query A { __typename }', operationName: 'B' }, ''],
    ['the token limit', { query: `{ ${'__typename '.repeat(5000)}}` }, 'GRAPHQL_VALIDATION_FAILED'],
  ];

  it.each(requestErrors)(
    '%s: 400 for graphql-response+json, 200 for application/json',
    async (_, body, code) => {
      const modern = await post(gateway(), body, GRAPHQL_RESPONSE);
      expect(modern.status, JSON.stringify(modern.body)).toBe(400);
      expect(modern.contentType).toContain(GRAPHQL_RESPONSE);
      expect(modern.body.data).toBeUndefined();
      for (const accept of ['application/json', undefined]) {
        const legacy = await post(gateway(), body, accept);
        expect(legacy.status, JSON.stringify(legacy.body)).toBe(200);
        expect(legacy.contentType).toContain('application/json');
        expect(legacy.body.errors?.length).toBeGreaterThan(0);
        if (code) expect(codes(legacy)).toEqual(legacy.body.errors!.map(() => code));
        else expect(codes(legacy)?.[0]).not.toBe('INTERNAL_ERROR');
      }
    },
  );

  it('the REST adapter in front of it keeps answering (its requests accept application/json)', async () => {
    const answer = await call(engines()[engine].rest, 'GET', '/api/admin/settlements?limit=1', {
      token: admin,
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const bad = await call(engines()[engine].rest, 'GET', '/api/admin/settlements?limit=0', {
      token: admin,
    });
    expect(bad.status).toBe(400);
  });
});

/** Values no custom scalar takes where an id, an amount or a time belongs. */
const BAD_VALUES: Record<string, unknown[]> = {
  SafeInt: [2 ** 53, -(2 ** 53), 1e300, 1.5, 'abc', '1', true],
  Decimal: [{}, true],
  DateTimeISO: ['abc', 12],
  JSONObject: ['abc', 12],
};

describe('a bad value of a custom scalar, wherever a client can put one', () => {
  let places: ScalarPlace[] = [];
  beforeAll(async () => {
    places = await customScalarPlaces();
  });

  it('covers the id-like arguments of both subgraphs', () => {
    const ids = places.filter((p) => p.scalar === 'SafeInt').map((p) => p.path.join('.'));
    // The quotation body's ids (generate, create, update) are among them.
    expect(ids).toEqual(
      expect.arrayContaining(['input.advertiserId', 'input.agencyId', 'input.lines.0.partnerId']),
    );
    expect(places.length).toBeGreaterThan(10);
  });

  it.each(['apollo', 'hive'] as const)(
    '%s: the caller’s error naming the field, never INTERNAL_ERROR or a 5xx',
    async (engine) => {
      const problems: string[] = [];
      for (const place of places)
        for (const bad of BAD_VALUES[place.scalar] ?? []) {
          const [argument, ...rest] = place.path as [string, ...(string | number)[]];
          const variables = {
            ...place.variables,
            [argument]: replaced(place.variables[argument], rest, bad),
          };
          const answer = await post(
            engines()[engine].gateway,
            { query: place.document, variables },
            GRAPHQL_RESPONSE,
            admin,
          );
          const error = answer.body.errors?.[0];
          const code = error?.extensions?.['code'];
          const where = `${place.field} ${place.path.join('.')}=${JSON.stringify(bad)}`;
          if (answer.status >= 500 || !error) problems.push(`${where}: ${answer.status}`);
          else if (code !== 'BAD_USER_INPUT' && code !== 'GRAPHQL_VALIDATION_FAILED')
            problems.push(`${where}: ${String(code)} ${error.message}`);
          else if (error.extensions?.['retryable'] === true) problems.push(`${where}: retryable`);
          else if (!error.message.includes(String(place.path.at(-1))))
            problems.push(`${where}: the message names no field: ${error.message}`);
        }
      expect(problems).toEqual([]);
    },
    120_000,
  );
});

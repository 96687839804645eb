import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { graphql, rest } from '../support/clients.js';
import { rawRequest } from '../support/raw-http.js';
import {
  expectError,
  invalidRequestNaming,
  rateCounted as rateCountOf,
  settled,
  unlimitedTenant,
  tenantState,
  useLensDatabase,
} from './engine-support.js';
import { errorCode, graphqlOp, restOp, type LensBody, type OperationName } from './lens-client.js';

/** Issue 9, item 4: U+0000 and lone surrogates are a 400 naming the field, and write nothing. */

const NUL = 'mi\u0000nji';
const LONE = 'min\ud800ji';
const REF = { accountRef: { handle: 'unsafe.text' } };

/** [operation, body, the field as REST names it, as GraphQL names it]. */
const BODIES: [OperationName, Record<string, unknown>, string, string][] = [];
for (const text of [NUL, LONE]) {
  BODIES.push(
    ['accounts.search', { search: text }, 'body.search', 'input.search'],
    ['accounts.followers', { ...REF, search: text }, 'body.search', 'input.search'],
    ['accounts.following', { ...REF, search: text }, 'body.search', 'input.search'],
    ['accounts.posts', { ...REF, cursor: text }, 'body.cursor', 'input.cursor'],
    [
      'accounts.stories',
      { accountRefs: [{ handle: 'a' }, { handle: text }] },
      'body.accountRefs[1].handle',
      'input.accountRefs[1].handle',
    ],
  );
}

describe('NUL characters and lone surrogates in lens input', () => {
  const sql = useLensDatabase();
  let key: string;
  let tenantId: string;

  beforeAll(async () => ({ key, tenantId } = await unlimitedTenant(sql())));

  // The tenant's rate-limit count (on its row since issue 27): input is checked before it.
  const rateCounted = () => rateCountOf(sql(), tenantId);

  it('REST: 400 INVALID_REQUEST naming the body field, for every text field', async () => {
    const before = await tenantState(sql(), tenantId);
    for (const [name, body, field] of BODIES) {
      const result = await restOp(name, body, key);
      expectError(result, 400, 'INVALID_REQUEST', false);
      expect(result.body.error!.message, `${name} ${JSON.stringify(body)}`).toContain(field);
    }
    expect(await tenantState(sql(), tenantId)).toEqual(before);
    expect(before.operations).toBe(0);
    expect(await rateCounted()).toBe(0);
  });

  it('GraphQL: INVALID_REQUEST naming the argument path, for every text argument', async () => {
    const before = await tenantState(sql(), tenantId);
    for (const [name, input, , field] of BODIES) {
      const { result, errors } = await graphqlOp(name, input, key);
      expect(result ?? null).toBeNull();
      expect(errorCode(errors), JSON.stringify(errors)).toBe('INVALID_REQUEST');
      expect(errors![0]!.extensions?.['httpStatus']).toBe(400);
      expect(errors![0]!.message).toContain(field);
    }
    for (const idempotencyKey of [`k${NUL}`, `k${LONE}`, '\udc00']) {
      const { errors } = await graphqlOp('accounts.search', { search: 'ok' }, key, {
        idempotencyKey,
      });
      expect(errorCode(errors), JSON.stringify(errors)).toBe('INVALID_REQUEST');
      expect(errors![0]!.message).toContain('idempotencyKey');
    }
    // A query argument too (an operation id is looked up, not written: still a 400, not a 500).
    const lookup = await graphql(
      'query($id: ID!) { operation(operationId: $id) { operationId } }',
      { id: `${randomUUID()}\u0000` },
      key,
    );
    expect(errorCode(lookup.errors)).toBe('INVALID_REQUEST');
    expect(lookup.errors![0]!.message).toContain('operationId');
    expect(await tenantState(sql(), tenantId)).toEqual(before);
    expect(await rateCounted()).toBe(0);
  });

  it('a well-formed pair (an emoji) is still accepted', async () => {
    const result = await restOp('accounts.search', { search: 'min 😀' }, key);
    expect(await settled(key, result), JSON.stringify(result.body)).toMatchObject({
      status: 'SUCCEEDED',
    });
  });

  it('REST path parameter and Idempotency-Key header with a NUL: 400 naming them', async () => {
    const before = await tenantState(sql(), tenantId);
    const path = await rest<LensBody>('GET', `/api/lens/v1/operations/${randomUUID()}%00`, {
      token: key,
    });
    expectError(path, 400, 'INVALID_REQUEST', false);
    expect(path.body.error!.message).toContain('operationId');

    // fetch refuses to send a NUL in a header; a client that does reaches the HTTP parser.
    const header = await rawRequest(
      'POST',
      '/api/lens/v1/accounts/search',
      [
        ['Authorization', `Bearer ${key}`],
        ['Idempotency-Key', 'key\u0000one'],
      ],
      { search: 'minji' },
    );
    expect(header.status).toBe(400);
    expect(header.body).toEqual(invalidRequestNaming('Idempotency-Key'));
    expect(await tenantState(sql(), tenantId)).toEqual(before);
  });
});

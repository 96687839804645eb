import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { rest, stack } from '../support/clients.js';
import { useQuotations, base as quotationBase } from './quotation-support.js';
import * as f from './support.js';

/**
 * Idempotency-Key on settlement mutations (issue 23 item 5): one implementation in the subgraph,
 * reached through REST and GraphQL alike.
 */

const keyed = (method: string, path: string, token: string, key: string, body?: unknown) =>
  rest<f.Envelope<f.SettlementBody>>(method, path, {
    token,
    body,
    headers: { 'idempotency-key': key },
  });

/** GraphQL on the gateway with an Idempotency-Key: status, replay header and body. */
async function keyedGraphql(
  query: string,
  variables: Record<string, unknown>,
  token: string,
  key: string,
) {
  const response = await fetch(stack().gateway, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/graphql-response+json',
      authorization: `Bearer ${token}`,
      'idempotency-key': key,
    },
    body: JSON.stringify({ query, variables }),
  });
  return {
    status: response.status,
    replayed: response.headers.get('idempotent-replayed'),
    body: (await response.json()) as { data?: Record<string, unknown>; errors?: f.GqlError[] },
  };
}

const moveToPaid = `mutation($id: ID!) {
  changeSettlementStatus(id: $id, input: { status: ADVERTISER_PAID }) { id status }
}`;

describe('Idempotency-Key on settlement mutations', () => {
  const ctx = useQuotations();
  const cast = f.useCast('INDIVIDUAL');

  const awaitingPayment = async () => {
    const id = await f.newSettlement(cast.admin, cast.ids);
    await f.walkTo(cast.admin, cast.partner, id, 'AWAITING_ADVERTISER_PAYMENT');
    return id;
  };
  const moves = async (id: string) =>
    (await f.auditOf(cast.db, id)).filter((a) => a.action === 'STATUS_CHANGED').length;

  it('REST: a retried move answers the stored status and body, replayed, and moves once', async () => {
    const id = await awaitingPayment();
    const movesBefore = await moves(id);
    const key = randomUUID();
    const path = f.adminPath(id, '/status');
    const first = await keyed('PATCH', path, cast.admin, key, { status: 'ADVERTISER_PAID' });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const again = await keyed('PATCH', path, cast.admin, key, { status: 'ADVERTISER_PAID' });
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(await moves(id)).toBe(movesBefore + 1);
    // The same key with another request: refused, nothing changes.
    await f.expectError(
      keyed('POST', f.adminPath(id, '/cancel'), cast.admin, key, { reason: 'other' }),
      409,
      'IDEMPOTENCY_KEY_REUSED',
    );
    expect((await f.expectOk(f.call('GET', f.adminPath(id), cast.admin))).status).toBe(
      'ADVERTISER_PAID',
    );
  });

  it('REST: a refusal is stored too (a retry of a 409 move gets the same 409)', async () => {
    const id = await f.newSettlement(cast.admin, cast.ids);
    const key = randomUUID();
    const path = f.adminPath(id, '/start-payout');
    await f.expectError(keyed('POST', path, cast.admin, key), 409, 'INVALID_STATUS_TRANSITION');
    const again = await keyed('POST', path, cast.admin, key);
    expect(again.status).toBe(409);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
  });

  it('REST: a retried create makes one quotation', async () => {
    const key = randomUUID();
    const payload = ctx.body(2);
    const first = await keyed('POST', quotationBase, ctx.admin, key, payload);
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    const again = await keyed('POST', quotationBase, ctx.admin, key, payload);
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    expect((await ctx.written())?.['quotations']).toBe(1);
  });

  it('keys belong to their principal: another caller with the same key runs its own request', async () => {
    const key = randomUUID();
    const [mine, theirs] = [await awaitingPayment(), await awaitingPayment()];
    await f.expectOk(
      keyed('PATCH', f.adminPath(mine, '/status'), cast.admin, key, { status: 'ADVERTISER_PAID' }),
    );
    const partnerAnswer = await keyed('POST', f.partnerPath(theirs, '/request'), cast.partner, key);
    // The partner's own request ran (and was refused on its merits: already requested).
    expect(partnerAnswer.headers.get('idempotent-replayed')).toBeNull();
    expect(partnerAnswer.status).toBe(409);
    expect((partnerAnswer.body.error as { code: string }).code).toBe('INVALID_STATUS_TRANSITION');
  });

  it('a key of 1-255 characters: 256 is a 400 and nothing moves', async () => {
    const id = await awaitingPayment();
    await f.expectError(
      keyed('PATCH', f.adminPath(id, '/status'), cast.admin, 'k'.repeat(256), {
        status: 'ADVERTISER_PAID',
      }),
      400,
      'INVALID_REQUEST',
    );
    expect((await f.expectOk(f.call('GET', f.adminPath(id), cast.admin))).status).toBe(
      'AWAITING_ADVERTISER_PAYMENT',
    );
  });

  it('concurrent requests with one key execute once', async () => {
    const id = await awaitingPayment();
    const movesBefore = await moves(id);
    const key = randomUUID();
    const answers = await Promise.all(
      Array.from({ length: 6 }, () =>
        keyed('PATCH', f.adminPath(id, '/status'), cast.admin, key, { status: 'ADVERTISER_PAID' }),
      ),
    );
    for (const answer of answers) {
      if (answer.status === 200) continue;
      expect(answer.status).toBe(409);
      expect((answer.body.error as { code: string }).code).toBe('IDEMPOTENCY_KEY_IN_PROGRESS');
    }
    expect(
      answers.filter((a) => a.status === 200 && !a.headers.get('idempotent-replayed')),
    ).toHaveLength(1);
    expect(await moves(id)).toBe(movesBefore + 1);
  });

  it('GraphQL: the same key replays with Idempotent-Replayed; two mutation fields are a 400', async () => {
    const id = await awaitingPayment();
    const key = randomUUID();
    const first = await keyedGraphql(moveToPaid, { id }, cast.admin, key);
    expect(first.body.errors).toBeUndefined();
    expect(first.replayed).toBeNull();
    const again = await keyedGraphql(moveToPaid, { id }, cast.admin, key);
    expect(again.replayed).toBe('true');
    expect(again.body).toEqual(first.body);
    const reused = await keyedGraphql(
      `mutation($id: ID!) { cancelSettlement(id: $id, input: { reason: "x" }) { id } }`,
      { id },
      cast.admin,
      key,
    );
    expect(reused.body.errors?.[0]?.extensions?.['code']).toBe('IDEMPOTENCY_KEY_REUSED');
    const two = await keyedGraphql(
      `mutation($id: ID!) { a: startSettlementPayout(id: $id) { id } b: startSettlementPayout(id: $id) { id } }`,
      { id },
      cast.admin,
      randomUUID(),
    );
    expect(two.status).toBe(400);
    expect(two.body.errors?.[0]?.extensions?.['code']).toBe('INVALID_REQUEST');
    expect((await f.expectOk(f.call('GET', f.adminPath(id), cast.admin))).status).toBe(
      'ADVERTISER_PAID',
    );
  });
});

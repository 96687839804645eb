import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { connectSql } from '@campaign/stack';
import { checkInvariants } from './support/invariants.js';
import { newParty, newSettlement, restsOf, walk, type Party } from './support/settlement-load.js';
import { call, cli, faults, lensCall, operationsOf } from './support/fault-stack.js';

/**
 * Issue 16: two full sets of services (adapter, gateway, both subgraphs) on one database, and
 * every request of a burst sent to the two sets in turn, all at once. What is shared state must
 * hold across them: nothing is executed, numbered, moved or e-mailed twice.
 */
let rests: string[];
let party: Party;

/** `n` requests at once, the i-th to set i mod 2. */
const burst = <T>(n: number, send: (rest: string, i: number) => Promise<T>) =>
  Promise.all(Array.from({ length: n }, (_, i) => send(rests[i % rests.length]!, i)));

const tally = (statuses: number[]) =>
  statuses.reduce<Record<number, number>>((t, s) => ({ ...t, [s]: (t[s] ?? 0) + 1 }), {});

beforeAll(async () => {
  rests = restsOf(faults().replicas);
  expect(rests).toHaveLength(2);
  party = await newParty(faults().urls.gateway);
});

describe('two replicas of every service on one database', () => {
  it('idempotency: one key sent to both sets at once is one operation, charged once', async () => {
    const key = await cli('lens:create-key', '--credits', '100', '--rate-limit', '100000');
    const keys = Array.from({ length: 5 }, () => randomUUID());
    const answers = await burst(20, (rest, i) =>
      lensCall(
        rest,
        key,
        '/accounts/profile',
        { accountRef: { handle: `replica.${i % 5}` } },
        keys[i % 5],
      ),
    );
    console.log(
      `replicas idempotency: 20 calls, 5 keys, answers ${JSON.stringify(tally(answers.map((a) => a.status)))}`,
    );
    for (const answer of answers) expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    for (let k = 0; k < 5; k++) {
      const ids = new Set(
        answers.filter((_, i) => i % 5 === k).map((a) => a.body.data!.operationId),
      );
      expect(ids.size).toBe(1);
    }
    expect(await operationsOf(key)).toHaveLength(5);
    expect(await cli('lens:credits', key)).toBe('95');
  });

  it('credits: a balance for 6 calls admits exactly 6 of 12 across both sets', async () => {
    const key = await cli('lens:create-key', '--credits', '6', '--rate-limit', '100000');
    const answers = await burst(12, (rest, i) =>
      lensCall(rest, key, '/accounts/profile', { accountRef: { handle: `credits.${i}` } }),
    );
    const statuses = answers.map((a) => a.status);
    console.log(
      `replicas credits: 12 calls for 6 credits, answers ${JSON.stringify(tally(statuses))}`,
    );
    expect(statuses.filter((s) => s === 200)).toHaveLength(6);
    for (const answer of answers.filter((a) => a.status !== 200))
      expect(answer.body.error?.code).toBe('INSUFFICIENT_CREDITS');
    expect(await cli('lens:credits', key)).toBe('0');
  });

  it('rate limit: 5 a minute admits exactly 5 of 10 across both sets', async () => {
    const key = await cli('lens:create-key', '--credits', '100', '--rate-limit', '5');
    const answers = await burst(10, (rest, i) =>
      lensCall(rest, key, '/accounts/profile', { accountRef: { handle: `limited.${i}` } }),
    );
    const statuses = answers.map((a) => a.status);
    console.log(
      `replicas rate limit: 10 calls at 5/min, answers ${JSON.stringify(tally(statuses))}`,
    );
    expect(statuses.filter((s) => s === 200)).toHaveLength(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(5);
  });

  it('business verification: 30 per address admits exactly 30 of 40 across both sets', async () => {
    const address = `10.16.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;
    const answers = await burst(40, (rest) =>
      call(rest, 'POST', '/api/public/business/verify', {
        body: { businessNumber: '1018623450' },
        headers: { 'x-forwarded-for': address },
      }),
    );
    const statuses = answers.map((a) => a.status);
    console.log(
      `replicas business verification: 40 calls, answers ${JSON.stringify(tally(statuses))}`,
    );
    expect(statuses.filter((s) => s === 200)).toHaveLength(30);
    expect(statuses.filter((s) => s === 429)).toHaveLength(10);
  });

  it('status moves: the same step sent to both sets at once moves the settlement once', async () => {
    const id = await newSettlement(faults().urls.gateway, party);
    const answers = await burst(6, (rest) =>
      call(rest, 'POST', `/api/partner/settlements/${id}/request`, { token: party.partner }),
    );
    const statuses = answers.map((a) => a.status);
    console.log(
      `replicas status move: 6 identical requests, answers ${JSON.stringify(tally(statuses))}`,
    );
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(5);
    const sql = await connectSql(faults().urls.settlementDatabase);
    try {
      const moves = await sql.query(
        `select 1 from settlement_audit where settlement_id = $1 and to_status = 'AWAITING_ADVERTISER_PAYMENT'`,
        [id],
      );
      expect(moves).toHaveLength(1);
    } finally {
      await sql.end();
    }
  });

  it('document numbers and messages: journeys alternating between the sets, each once', async () => {
    const ids = await Promise.all(
      Array.from({ length: 6 }, () => newSettlement(faults().urls.gateway, party)),
    );
    const log = { statuses: [] as number[] };
    await Promise.all(
      ids.map((id, i) => walk(i % 2 ? rests : [...rests].reverse(), party, id, log)),
    );
    console.log(
      `replicas journeys: ${ids.length} settlements completed, answers ${JSON.stringify(tally(log.statuses))}`,
    );
    const report = await checkInvariants();
    expect(report.duplicates).toEqual({ email: 0, chat: 0 });
    expect(report.problems).toEqual([]);
  });
});

import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { checkInvariants } from './support/invariants.js';
import { documentedFailure, lensJourney } from './support/lens-load.js';
import {
  cli,
  faults,
  killAndAwaitRestart,
  lensCall,
  operationsOf,
  until,
} from './support/fault-stack.js';

/**
 * Issue 16: the lens subgraph SIGKILLed while operations execute inline (inside the sync budget)
 * and while 202 work runs in the background. Whatever the caller saw at the time, every
 * operation ends terminal and is settled exactly once, and repeating a request with its
 * idempotency key gives the same operation.
 */
const INLINE_CALLS = 12;
const SLOW_CALLS = 6;

let key: string;
let base: string;

const profile = (handle: string, idempotencyKey: string) =>
  lensCall(base, key, '/accounts/profile', { accountRef: { handle } }, idempotencyKey);

/** Repeats each request with its key until it is terminal; returns key → operation id. */
async function settleByRetry(keys: Map<string, string>): Promise<Map<string, string>> {
  const ids = new Map<string, string>();
  for (const [idempotencyKey, handle] of keys) {
    const journey = await lensJourney([base], key, handle, {}, idempotencyKey);
    expect(journey.undocumented).toEqual([]);
    ids.set(idempotencyKey, journey.operationId);
  }
  return ids;
}

beforeAll(async () => {
  base = faults().urls.rest;
  key = await cli('lens:create-key', '--credits', '1000', '--rate-limit', '100000');
});

describe('lens subgraph SIGKILLed under load', () => {
  const keys = new Map<string, string>();

  it('during inline execution: every request ends in one settled operation', async () => {
    // slow_ reads outlast the sync budget: lens is killed while the callers still wait inline.
    for (let i = 0; i < INLINE_CALLS; i++) keys.set(randomUUID(), `slow_inline_kill_${i}`);
    let killed = false;
    let answeredBeforeKill = 0;
    const inFlight = [...keys].map(([k, handle]) =>
      profile(handle, k).then((answer) => {
        if (!killed) answeredBeforeKill++;
        return answer;
      }),
    );
    const running = await until(
      () => operationsOf(key),
      (ops) => ops.length === INLINE_CALLS,
      'every inline operation started',
    );
    expect(running.map((o) => o.status)).toEqual(running.map(() => 'RUNNING'));
    killed = true;
    const restartMs = await killAndAwaitRestart('lens subgraph');
    const answers = await Promise.all(inFlight);
    const failures = answers.filter((a) => a.status >= 300);
    console.log(
      `inline kill: ${answers.length} calls (${answeredBeforeKill} answered before the kill), ` +
        `${answers.length - failures.length} answered 2xx, ` +
        `${failures.length} failed (${failures.map((a) => a.status).join(',')}), lens back in ${restartMs} ms`,
    );
    for (const failure of failures)
      expect(documentedFailure(failure), JSON.stringify(failure)).toBe(true);

    const ids = await settleByRetry(keys);
    // Every answer that named an operation named the one its key ends with.
    answers.forEach((answer, i) => {
      const id = answer.body.data?.operationId ?? answer.body.error?.operationId;
      if (id) expect(id).toBe(ids.get([...keys.keys()][i]!));
    });
    expect(new Set(ids.values()).size).toBe(INLINE_CALLS);
  });

  it('during 202 work: every accepted operation is settled once after the restart', async () => {
    const slow = new Map<string, string>();
    for (let i = 0; i < SLOW_CALLS; i++) slow.set(randomUUID(), `slow_kill_${i}`);
    const accepted = await Promise.all([...slow].map(([k, handle]) => profile(handle, k)));
    for (const answer of accepted) expect(answer.status, JSON.stringify(answer.body)).toBe(202);
    const started = Date.now();
    await killAndAwaitRestart('lens subgraph');
    const ids = await settleByRetry(slow);
    console.log(
      `202 kill: ${SLOW_CALLS} accepted, all terminal ${Date.now() - started} ms after the kill`,
    );
    accepted.forEach((answer, i) =>
      expect(answer.body.data!.operationId).toBe(ids.get([...slow.keys()][i]!)),
    );
    for (const [k, v] of slow) keys.set(k, v);
  });

  it('keeps the invariants: one operation per key, terminal, settled once', async () => {
    const operations = await operationsOf(key);
    expect(operations).toHaveLength(INLINE_CALLS + SLOW_CALLS);
    const report = await checkInvariants();
    expect(report.problems).toEqual([]);
  });
});

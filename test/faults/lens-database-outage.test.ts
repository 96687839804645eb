import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { connectSql } from '@campaign/stack';
import { awaitBoot } from '../support/background-boot.js';
import { cliFor } from '../support/cli.js';
import type { Envelope, LensBody } from '../lens/lens-client.js';
import { eventually } from '../support/wait.js';
import type { LensOutageStack } from './support/lens-outage-stack.js';

/**
 * Issue 9: lens must execute again by itself after PostgreSQL was gone for a few seconds, and
 * `/readyz` must say so. This file has a stack of its own (the shared one must not lose its
 * database under the other test files; `support/lens-outage-stack.ts`, booted while the first
 * tiers run), with fewer workers than slow operations in flight, so every worker holds a job
 * when the database goes away.
 */

const SLOW_CALLS = 5;
const CREDITS = 1000;
/** Long enough that every slow read ends (and fails to settle) while the database is down. */
const OUTAGE_MS = 4_000;

let stack: LensOutageStack;
let key: string;
const slowOperationIds: string[] = [];
let readyzDuringOutage: number[] = [];

/** Stops or starts the stack's database (in the global setup's process), once that is done. */
async function database(action: 'stop' | 'start'): Promise<void> {
  const response = await fetch(`${stack.control}/database/${action}`, { method: 'POST' });
  if (response.status !== 200) throw new Error(`database ${action}: ${await response.text()}`);
}

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const createKey = () =>
  cliFor(stack.urls, 'lens:create-key', '--credits', String(CREDITS), '--rate-limit', '100000');

async function call(
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
): Promise<{ status: number; body: LensBody }> {
  const response = await fetch(`${stack.urls.rest}/api/lens/v1${path}`, {
    method,
    headers: {
      authorization: `Bearer ${key}`,
      ...(body === undefined
        ? {}
        : { 'content-type': 'application/json', 'idempotency-key': randomUUID() }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(30_000),
  });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : null) as LensBody };
}

const profile = (handle: string) => call('POST', '/accounts/profile', { accountRef: { handle } });

/** `/readyz` of the lens subgraph (same origin as its /graphql); 0 when it does not answer. */
async function lensReadyz(): Promise<number> {
  try {
    const response = await fetch(`${new URL(stack.urls.lens).origin}/readyz`, {
      signal: AbortSignal.timeout(3_000),
    });
    await response.text();
    return response.status;
  } catch {
    return 0;
  }
}

/** Polls the status endpoint until the operation is SUCCEEDED or FAILED, or `timeoutMs` passed. */
async function terminal(operationId: string, timeoutMs: number): Promise<Envelope> {
  const read = async () => {
    const result = await call('GET', `/operations/${operationId}`).catch(() => null);
    return result?.status === 200 ? result.body.data! : null;
  };
  const done = await eventually(
    read,
    (op) => op?.status === 'SUCCEEDED' || op?.status === 'FAILED',
    `operation ${operationId} terminal`,
    timeoutMs,
    250,
  );
  return done!;
}

describe('lens after a database outage (issue 9)', () => {
  beforeAll(async () => {
    stack = await awaitBoot<LensOutageStack>(inject('lensOutageBoot'));
    key = await createKey();
  }, 180_000);

  afterAll(async () => {
    // A failed assertion may leave the database stopped; `start` is a no-op when it runs.
    if (stack?.control) await database('start').catch(() => undefined);
  }, 60_000);

  it('readyz is 503 while the database is down and 200 within seconds of its return', async () => {
    expect(stack.control, 'the ephemeral stack runs an embedded database').not.toBeNull();
    expect(await lensReadyz()).toBe(200);
    const accepted = await Promise.all(
      Array.from({ length: SLOW_CALLS }, (_, i) => profile(`slow_outage_${i}`)),
    );
    for (const result of accepted) {
      expect(result.status, JSON.stringify(result.body)).toBe(202);
      slowOperationIds.push(result.body.data!.operationId);
    }

    await database('stop');
    const back = Date.now() + OUTAGE_MS;
    readyzDuringOutage = [];
    // A call while the database is away is a 503 that says so (not a 500 without an operation).
    const during = await fetch(`${stack.urls.rest}/api/lens/v1/accounts/profile`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${key}`,
        'content-type': 'application/json',
        'idempotency-key': randomUUID(),
      },
      body: JSON.stringify({ accountRef: { handle: 'during.outage' } }),
    });
    const duringBody = (await during.json()) as LensBody;
    while (Date.now() < back) {
      readyzDuringOutage.push(await lensReadyz());
      await delay(200);
    }
    await database('start');

    expect(during.status, JSON.stringify(duringBody)).toBe(503);
    expect(duringBody.error).toMatchObject({ code: 'SERVICE_UNAVAILABLE', retryable: true });
    expect(Number(during.headers.get('retry-after'))).toBeGreaterThan(0);

    expect(readyzDuringOutage.length).toBeGreaterThan(3);
    // The first probes may still be answered from the short readiness cache.
    expect(readyzDuringOutage.slice(-3)).toEqual([503, 503, 503]);
    expect(readyzDuringOutage).not.toContain(0); // lens itself stayed up

    // lens /readyz within 15 s of the database coming back.
    await eventually(lensReadyz, (status) => status === 200, 'lens ready again', 15_000, 250);
  }, 60_000);

  it('a new billed call after the outage executes and ends SUCCEEDED', async () => {
    const started = Date.now();
    const first = await profile('minji.daily');
    expect(first.body.data?.operationId, JSON.stringify(first.body)).toBeDefined();
    const done = await terminal(first.body.data!.operationId, 20_000);
    expect(done.status, JSON.stringify(done)).toBe('SUCCEEDED');
    expect(done.credits).toEqual({ reserved: 1, charged: 1, refunded: 0 });
    expect(Date.now() - started).toBeLessThan(20_000);
    // And a slow one: executed by the (new) workers, not only by whatever answers in the budget.
    const slow = await profile('slow_after_outage');
    expect(slow.body.data?.operationId, JSON.stringify(slow.body)).toBeDefined();
    const slowDone = await terminal(slow.body.data!.operationId, 20_000);
    expect(slowDone.status, JSON.stringify(slowDone)).toBe('SUCCEEDED');
  }, 60_000);

  it('operations started before the outage end terminal with their credits settled', async () => {
    expect(slowOperationIds).toHaveLength(SLOW_CALLS);
    const finished = await Promise.all(slowOperationIds.map((id) => terminal(id, 90_000)));
    for (const operation of finished) {
      // With the reconciler (or a retried job) the re-read succeeds; FAILED is still terminal.
      expect(['SUCCEEDED', 'FAILED']).toContain(operation.status);
      const { reserved, charged, refunded } = operation.credits;
      expect(reserved, JSON.stringify(operation)).toBe(charged + refunded);
    }
    expect(finished.map((o) => o.status)).toEqual(finished.map(() => 'SUCCEEDED'));

    const sql = await connectSql(stack.urls.lensDatabase);
    try {
      const rows = await sql.query<{ status: string; charged: string; balance: string }>(
        `select o.status, o.credits_charged as charged, t.credit_balance as balance
         from operation o join tenant t on t.id = o.tenant_id
         join api_key k on k.tenant_id = t.id
         where k.key_hash = encode(sha256(convert_to($1, 'UTF8')), 'hex')`,
        [key],
      );
      expect(rows.length).toBe(SLOW_CALLS + 2);
      expect(rows.filter((r) => r.status !== 'SUCCEEDED' && r.status !== 'FAILED')).toEqual([]);
      const charged = rows.reduce((sum, r) => sum + Number(r.charged), 0);
      expect(Number(rows[0]!.balance)).toBe(CREDITS - charged);
    } finally {
      await sql.end();
    }
  }, 120_000);
});

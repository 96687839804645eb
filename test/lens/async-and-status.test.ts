import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { cli } from '../support/cli.js';
import { answerSlowNow, graphql, graphqlOk } from '../support/clients.js';
import { TEST_SYNC_BUDGET_MS } from '../support/test-stack.js';
import { errorCode } from './lens-client.js';
import * as engine from './engine-support.js';

const SLOW = { accountRef: { handle: 'slow_hana' } };

describe('sync budget, 202 and the status endpoint (DESIGN.md L4, L10)', () => {
  const sql = engine.useLensDatabase();
  let key: string;

  beforeAll(async () => {
    key = await cli('lens:create-key', '--credits', '1000', '--rate-limit', '1000');
  });

  it('past the sync budget: 202 with the RUNNING envelope, then SUCCEEDED on the status endpoint', async () => {
    const started = Date.now();
    const accepted = await engine.profile(key, SLOW);
    expect(Date.now() - started).toBeGreaterThanOrEqual(TEST_SYNC_BUDGET_MS - 50);
    expect(accepted.status).toBe(202);
    expect(accepted.body).toEqual({
      success: true,
      data: {
        operationId: expect.stringMatching(/^[0-9a-f-]{36}$/),
        operationName: 'accounts.profile',
        status: 'RUNNING',
        credits: { reserved: 1, charged: 0, refunded: 0 },
        replayed: false,
      },
    });
    const operationId = accepted.body.data!.operationId;
    const running = await engine.status(key, operationId);
    expect(running.status).toBe(200);
    expect(running.body.data!.status).toBe('RUNNING');
    expect(running.headers.get('lens-observed-at')).toBeNull();

    await answerSlowNow(); // RUNNING is seen: the upstream need not sit out the rest of its delay
    const done = await engine.waitForStatus(key, operationId, 'SUCCEEDED');
    expect(done).toMatchObject({
      replayed: false,
      credits: { reserved: 1, charged: 1, refunded: 0 },
    });
    expect(done.data!['handle']).toBe('slow_hana');
    const finished = await engine.status(key, operationId);
    expect(finished.headers.get('lens-observed-at')).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    // The finished job leaves the queue (graphile-worker completes it right after it settled).
    const queued = async () => {
      const [jobs] = await sql().query<{ n: number }>(
        `select count(*)::int as n from graphile_worker.jobs where key = $1`,
        [`execute:${operationId}`],
      );
      return jobs!.n;
    };
    await expect.poll(queued, { timeout: 5_000, interval: 100 }).toBe(0);
  });

  it('a replay of a RUNNING execution waits up to the budget, then answers 202 replayed', async () => {
    // An operation that is RUNNING for the whole budget whatever the machine's load: accepted,
    // its lease held for a few seconds by an attempt that is not reading (no job).
    const tenantId = await engine.tenantIdOf(sql(), key);
    const { operationId, idempotencyKey } = await engine.forceOperation(sql(), {
      tenantId,
      handle: 'held.running',
      status: 'RUNNING',
      leaseSeconds: TEST_SYNC_BUDGET_MS / 1000 + 5,
    });
    const started = Date.now();
    const again = await engine.profile(
      key,
      { accountRef: { handle: 'held.running' } },
      idempotencyKey,
    );
    expect(Date.now() - started).toBeGreaterThanOrEqual(TEST_SYNC_BUDGET_MS - 50);
    expect(again.status).toBe(202);
    expect(again.body.data).toMatchObject({ operationId, status: 'RUNNING', replayed: true });
    // Once the lease runs out, the reconciler reads again and settles it. It was held longer
    // than the budget only so that the replay saw RUNNING on a loaded machine: it runs out now.
    await sql().query('update operation set lease_expires_at = now() where id = $1', [operationId]);
    await engine.waitForStatus(key, operationId, 'SUCCEEDED', 20_000);
  });

  it('the durable job of an accepted operation runs even when the process that accepted it is gone', async () => {
    // What a lens process leaves when it dies right after answering 202: the operation, its
    // reservation and its queued job. Any live lens process picks the job up.
    const tenantId = await engine.tenantIdOf(sql(), key);
    const operationId = randomUUID();
    const input = { accountRef: { handle: 'orphan.job' }, detail: 'standard' };
    await sql().query('begin');
    await sql().query(
      `insert into operation (id, tenant_id, idempotency_key, operation_name, input, input_hash,
         status, credits_reserved, lease_expires_at, credential_id)
       values ($1, $2, $3, 'accounts.profile', $4, 'x', 'RUNNING', 1, now() + interval '1 minute',
         (select id from api_key where tenant_id = $2 limit 1))`,
      [operationId, tenantId, randomUUID(), JSON.stringify(input)],
    );
    await engine.listOpen(sql(), operationId);
    const [row] = await sql().query<{ credit_balance: string }>(
      'update tenant set credit_balance = credit_balance - 1 where id = $1 returning credit_balance',
      [tenantId],
    );
    await sql().query(
      `insert into credit_ledger_entry (tenant_id, operation_id, kind, amount, balance_after)
       values ($1, $2, 'RESERVE', -1, $3)`,
      [tenantId, operationId, row!.credit_balance],
    );
    await sql().query(
      `select graphile_worker.add_job('lens_execute_operation', json_build_object('operationId', $1::text),
         job_key => 'execute:' || $1)`,
      [operationId],
    );
    await sql().query('commit');
    const done = await engine.waitForStatus(key, operationId, 'SUCCEEDED');
    expect(done.credits).toEqual({ reserved: 1, charged: 1, refunded: 0 });
    const state = await engine.tenantState(sql(), tenantId);
    expect(state.ledgerSum).toBe(state.balance);
  });

  it('GraphQL: operation(operationId) with observedAt, and the tenant’s operations paged', async () => {
    const other = await cli('lens:create-key', '--credits', '10');
    for (const handle of ['page.one', 'page.two', 'page.three']) {
      await engine.profile(other, { accountRef: { handle } });
    }
    const first = await graphqlOk<{
      operations: {
        items: { operationId: string; status: string; observedAt: string | null }[];
        nextCursor: string | null;
      };
    }>(
      `{ operations(first: 2) { items { operationId status observedAt createdAt } nextCursor } }`,
      {},
      other,
    );
    expect(first.operations.items).toHaveLength(2);
    expect(first.operations.nextCursor).not.toBeNull();
    const rest = await graphqlOk<{
      operations: { items: { operationId: string }[]; nextCursor: string | null };
    }>(
      `query($after: String) { operations(first: 2, after: $after) { items { operationId } nextCursor } }`,
      { after: first.operations.nextCursor },
      other,
    );
    expect(rest.operations.items).toHaveLength(1);
    expect(rest.operations.nextCursor).toBeNull();
    const one = first.operations.items[0]!;
    const { operation } = await graphqlOk<{
      operation: { operationId: string; operationName: string; observedAt: string };
    }>(
      `query($id: ID!) { operation(operationId: $id) { operationId operationName observedAt } }`,
      { id: one.operationId },
      other,
    );
    expect(operation.operationName).toBe('accounts.profile');
    expect(operation.observedAt).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    const foreign = await graphql(
      `
        query ($id: ID!) {
          operation(operationId: $id) {
            operationId
          }
        }
      `,
      { id: one.operationId },
      key,
    );
    expect(errorCode(foreign.errors)).toBe('OPERATION_NOT_FOUND');
    const badCursor = await graphql(
      `
        {
          operations(after: "nope") {
            nextCursor
          }
        }
      `,
      {},
      other,
    );
    expect(errorCode(badCursor.errors)).toBe('INVALID_CURSOR');
    const failed = await graphqlOk<{ operations: { items: unknown[] } }>(
      `{ operations(status: FAILED) { items { operationId } } }`,
      {},
      other,
    );
    expect(failed.operations.items).toHaveLength(0);
  });
});

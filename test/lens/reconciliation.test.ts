import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { freePort } from '@campaign/stack';
import { keyArgs, tokenArgs, useCli } from '../support/cli.js';
import { AS_GATEWAY, graphql, graphqlOk } from '../support/clients.js';
import { startBeside } from '../support/beside.js';
import { errorCode } from './lens-client.js';
import * as engine from './engine-support.js';

const LIST = `query($first: Int, $after: String) {
  operationsRequiringReconciliation(first: $first, after: $after) {
    items { operationId status credits { reserved charged refunded } } nextCursor } }`;
const RESOLVE = `mutation($id: ID!, $resolution: ReconciliationResolution!) {
  resolveOperation(operationId: $id, resolution: $resolution) {
    operationId status data error { code httpStatus retryable } credits { reserved charged refunded } } }`;

describe('RECONCILIATION_REQUIRED (DESIGN.md L6)', () => {
  const sql = engine.useLensDatabase();
  const keys = useCli({
    key: keyArgs('--credits', '100', '--rate-limit', '1000'),
    superAdmin: tokenArgs('SUPER_ADMIN'),
    admin: tokenArgs('ADMIN'),
    revocable: keyArgs('--credits', '5'),
  });
  const tenant = engine.useTenantOf(sql, () => keys.key);
  /** A super admin resolves operation `id`: the answer; resolveOk: the operation, which must succeed. */
  const resolve = (id: string, resolution: 'RERUN' | 'FAIL') =>
    graphql<{ resolveOperation: Record<string, unknown> }>(
      RESOLVE,
      { id, resolution },
      keys.superAdmin,
    );
  const resolveOk = async (id: string, resolution: 'RERUN' | 'FAIL') => {
    const { data, errors } = await resolve(id, resolution);
    expect(errors).toBeUndefined();
    return data!.resolveOperation;
  };

  it('a worker that died mid-execution: its lease expires, the reconciler moves it and resolves it', async () => {
    // The state a lens process killed mid-read leaves: RUNNING, credits reserved, lease expired.
    const { operationId } = await engine.forceOperation(sql(), {
      tenantId: tenant.id,
      handle: 'slow_after_crash',
      status: 'RUNNING',
    });
    // The reconciler re-reads a slow_ account (2.5 s), so RECONCILIATION_REQUIRED is visible.
    const stuck = await engine.waitForStatus(
      keys.key,
      operationId,
      'RECONCILIATION_REQUIRED',
      10_000,
    );
    expect(stuck.credits).toEqual({ reserved: 1, charged: 0, refunded: 0 });
    const resolved = await engine.waitForStatus(keys.key, operationId, 'SUCCEEDED', 20_000);
    expect(resolved.credits).toEqual({ reserved: 1, charged: 1, refunded: 0 });
    expect(resolved.data!['handle']).toBe('slow_after_crash');
    const state = await engine.tenantState(sql(), tenant.id);
    expect(state.ledgerSum).toBe(state.balance);
    const kinds = await sql().query<{ kind: string }>(
      'select kind from credit_ledger_entry where operation_id = $1 order by id',
      [operationId],
    );
    expect(kinds.map((k) => k.kind)).toEqual(['RESERVE', 'RELEASE', 'CHARGE']);
  });

  it('a lens process SIGKILLed mid-execution: the operation still ends SUCCEEDED, settled once', async () => {
    // A second lens subgraph (a replica) accepts a slow_ read and is killed while it runs. Its
    // job was taken by either replica: by the survivor, it just finishes; by the killed one, its
    // short lease expires and the survivor's reconciler resolves it.
    const port = await freePort();
    const replica = await startBeside('lens', 'lens replica (killed)', port, {
      LENS_SYNC_BUDGET_MS: '300',
      LENS_LEASE_MS: '1500',
      LOG_LEVEL: 'fatal',
    });
    const response = await fetch(`http://127.0.0.1:${port}/graphql`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${keys.key}`,
        ...AS_GATEWAY,
      },
      body: JSON.stringify({
        query: `mutation($key: String!) { accountsProfile(idempotencyKey: $key,
          input: { accountRef: { handle: "slow_killed_replica" } }) { operationId status } }`,
        variables: { key: randomUUID() },
      }),
    });
    const { data } = (await response.json()) as {
      data: { accountsProfile: { operationId: string; status: string } };
    };
    expect(data.accountsProfile.status).toBe('RUNNING');
    replica.child.kill('SIGKILL');
    await once(replica.child, 'exit');
    const done = await engine.waitForStatus(
      keys.key,
      data.accountsProfile.operationId,
      'SUCCEEDED',
      20_000,
    );
    expect(done.credits).toEqual({ reserved: 1, charged: 1, refunded: 0 });
    const kinds = await sql().query<{ kind: string }>(
      'select kind from credit_ledger_entry where operation_id = $1 order by id',
      [done.operationId],
    );
    expect(kinds.map((k) => k.kind)).toEqual(['RESERVE', 'RELEASE', 'CHARGE']);
    const state = await engine.tenantState(sql(), tenant.id);
    expect(state.ledgerSum).toBe(state.balance);
  });

  it('admins list operations in RECONCILIATION_REQUIRED and resolve them (RERUN, FAIL)', async () => {
    const rerun = await engine.forceOperation(sql(), {
      tenantId: tenant.id,
      handle: 'admin.rerun',
      status: 'RECONCILIATION_REQUIRED',
    });
    const fail = await engine.forceOperation(sql(), {
      tenantId: tenant.id,
      handle: 'admin.fail',
      status: 'RECONCILIATION_REQUIRED',
    });
    const ids: string[] = [];
    let after: string | null = null;
    do {
      const page: {
        operationsRequiringReconciliation: {
          items: { operationId: string; status: string }[];
          nextCursor: string | null;
        };
      } = await graphqlOk(LIST, { first: 50, after }, keys.superAdmin);
      ids.push(...page.operationsRequiringReconciliation.items.map((o) => o.operationId));
      after = page.operationsRequiringReconciliation.nextCursor;
    } while (after);
    expect(ids).toEqual(expect.arrayContaining([rerun.operationId, fail.operationId]));
    // A replay of its key answers 202 with that status while the outcome is not known.
    const replay = await engine.profile(
      keys.key,
      { accountRef: { handle: 'admin.rerun' } },
      rerun.idempotencyKey,
    );
    expect(replay.status).toBe(202);
    expect(replay.body.data).toMatchObject({
      operationId: rerun.operationId,
      status: 'RECONCILIATION_REQUIRED',
      replayed: true,
    });

    const done = await resolveOk(rerun.operationId, 'RERUN');
    expect(done).toMatchObject({
      status: 'SUCCEEDED',
      credits: { reserved: 1, charged: 1, refunded: 0 },
    });
    const gaveUp = await resolveOk(fail.operationId, 'FAIL');
    expect(gaveUp).toMatchObject({
      status: 'FAILED',
      error: { code: 'EXECUTION_FAILED', httpStatus: 500 },
      credits: { reserved: 1, charged: 0, refunded: 1 },
    });
    const again = await resolve(fail.operationId, 'RERUN');
    expect(errorCode(again.errors)).toBe('INVALID_STATUS_TRANSITION');
    const state = await engine.tenantState(sql(), tenant.id);
    expect(state.ledgerSum).toBe(state.balance);
  });

  it('only SUPER_ADMIN tokens reach the admin queries', async () => {
    expect(errorCode((await graphql(LIST, {}, keys.admin)).errors)).toBe('PERMISSION_DENIED');
    expect(errorCode((await graphql(LIST, {}, keys.key)).errors)).toBe('UNAUTHENTICATED');
    expect(errorCode((await graphql(LIST, {})).errors)).toBe('UNAUTHENTICATED');
    const missing = await resolve('00000000-0000-4000-8000-000000000000', 'RERUN');
    expect(errorCode(missing.errors)).toBe('OPERATION_NOT_FOUND');
  });

  it('admins revoke an API key through GraphQL; the key is refused from then on', async () => {
    const REVOKE = `mutation($key: String!) { revokeApiKey(apiKey: $key) }`;
    expect(errorCode((await graphql(REVOKE, { key: keys.revocable }, keys.admin)).errors)).toBe(
      'PERMISSION_DENIED',
    );
    expect(
      (await engine.profile(keys.revocable, { accountRef: { handle: 'minji.daily' } })).status,
    ).toBe(200);
    expect(await graphqlOk(REVOKE, { key: keys.revocable }, keys.superAdmin)).toEqual({
      revokeApiKey: true,
    });
    expect(await graphqlOk(REVOKE, { key: keys.revocable }, keys.superAdmin)).toEqual({
      revokeApiKey: false,
    });
    engine.expectError(
      await engine.profile(keys.revocable, { accountRef: { handle: 'minji.daily' } }),
      401,
      'UNAUTHENTICATED',
      false,
    );
  });

  it('500 EXECUTION_FAILED: an execution that breaks unexpectedly fails, refunds, and replays as a 500', async () => {
    // Stored input that can no longer be read (what a bug or a bad data migration would leave):
    // the read throws an unexpected error, which is ours, not the caller's.
    const { operationId, idempotencyKey } = await engine.forceOperation(sql(), {
      tenantId: tenant.id,
      handle: 'broken.input',
      status: 'RECONCILIATION_REQUIRED',
      storedInput: { accountRef: { handle: 42 } },
    });
    const resolved = await resolveOk(operationId, 'RERUN');
    expect(resolved).toMatchObject({
      status: 'FAILED',
      error: { code: 'EXECUTION_FAILED', httpStatus: 500, retryable: true },
      credits: { reserved: 1, charged: 0, refunded: 1 },
    });
    const replay = await engine.profile(
      keys.key,
      { accountRef: { handle: 'broken.input' } },
      idempotencyKey,
    );
    engine.expectError(replay, 500, 'EXECUTION_FAILED', true);
    expect(replay.body.data).toMatchObject({ operationId, status: 'FAILED', replayed: true });
    expect((await engine.status(keys.key, operationId)).body.data!.status).toBe('FAILED');
  });

  it('the database refuses moves L6 does not allow', async () => {
    const { operationId } = await engine.forceOperation(sql(), {
      tenantId: tenant.id,
      handle: 'guarded',
      status: 'RECONCILIATION_REQUIRED',
    });
    await expect(
      sql().query(`update operation set status = 'RUNNING' where id = $1`, [operationId]),
    ).rejects.toThrow(/cannot move/);
    await resolveOk(operationId, 'FAIL');
    await expect(
      sql().query(`update operation set status = 'SUCCEEDED' where id = $1`, [operationId]),
    ).rejects.toThrow(/cannot change/);
  });
});

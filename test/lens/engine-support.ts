import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect } from 'vitest';
import { inputHash } from '@campaign/lens';
import { hashKey } from '@campaign/lens';
import { connectSql, type Sql } from '@campaign/stack';
import { cli } from '../support/cli.js';
import { rest, stack, type HttpResult } from '../support/clients.js';
import { expectDocumented, type Envelope, type LensBody } from './lens-client.js';
import { eventually } from '../support/wait.js';

/** Whole-stack helpers of the engine tests: a direct look at the lens database, and REST calls. */

/** One PostgreSQL client on the lens database for the test file (opened and closed by hooks). */
export function useLensDatabase(): () => Sql {
  let sql: Sql | undefined;
  beforeAll(async () => {
    sql = await connectSql(stack().lensDatabase);
  });
  afterAll(async () => {
    await sql?.end();
  });
  return () => sql!;
}

export async function tenantIdOf(sql: Sql, apiKey: string): Promise<string> {
  const [row] = await sql.query<{ tenant_id: string }>(
    'select tenant_id from api_key where key_hash = $1',
    [hashKey(apiKey)],
  );
  return row!.tenant_id;
}

/**
 * For a describe block: the tenant of the API key `key()` names (a `useCli` key), looked up once
 * before its tests; `id` is read in the tests.
 */
export function useTenantOf(sql: () => Sql, key: () => string): { readonly id: string } {
  let id: string | undefined;
  beforeAll(async () => {
    id = await tenantIdOf(sql(), key());
  });
  return {
    get id() {
      if (id === undefined) throw new Error('the tenant is looked up before the first test');
      return id;
    },
  };
}

/** A new tenant with 1000 credits and a rate limit no test reaches: its API key and id. */
export async function unlimitedTenant(sql: Sql): Promise<{ key: string; tenantId: string }> {
  const key = await cli('lens:create-key', '--credits', '1000', '--rate-limit', '100000');
  return { key, tenantId: await tenantIdOf(sql, key) };
}

export interface TenantState {
  balance: number;
  ledgerSum: number;
  ledgerEntries: number;
  operations: number;
  negativeBalances: number;
}

/** Requests counted in the tenant's current rate-limit window (on the tenant row). */
export async function rateCounted(sql: Sql, tenantId: string): Promise<number> {
  const [row] = await sql.query<{ n: number }>(
    `select rate_window_hits as n from tenant where id = $1`,
    [tenantId],
  );
  return row!.n;
}

/** Everything the engine can have written for one tenant. */
export async function tenantState(sql: Sql, tenantId: string): Promise<TenantState> {
  const [row] = await sql.query<Record<string, string>>(
    `select (select credit_balance from tenant where id = $1) as balance,
       (select coalesce(sum(amount), 0) from credit_ledger_entry where tenant_id = $1) as ledger_sum,
       (select count(*) from credit_ledger_entry where tenant_id = $1) as ledger_entries,
       (select count(*) from credit_ledger_entry where tenant_id = $1 and balance_after < 0)
         as negative_balances,
       (select count(*) from operation where tenant_id = $1) as operations`,
    [tenantId],
  );
  return {
    balance: Number(row!['balance']),
    ledgerSum: Number(row!['ledger_sum']),
    ledgerEntries: Number(row!['ledger_entries']),
    operations: Number(row!['operations']),
    negativeBalances: Number(row!['negative_balances']),
  };
}

/** POST /accounts/profile over REST, checked against the published OpenAPI document. */
export async function profile(
  token: string | undefined,
  body: unknown,
  idempotencyKey: string | null = randomUUID(),
): Promise<HttpResult<LensBody>> {
  const result = await rest<LensBody>('POST', '/api/lens/v1/accounts/profile', {
    ...(token === undefined ? {} : { token }),
    body,
    headers: idempotencyKey === null ? {} : { 'idempotency-key': idempotencyKey },
  });
  expectDocumented('/accounts/profile', 'post', result);
  return result;
}

/** GET /operations/{id} over REST, checked against the document. */
export async function status(token: string, operationId: string): Promise<HttpResult<LensBody>> {
  const result = await rest<LensBody>('GET', `/api/lens/v1/operations/${operationId}`, { token });
  expectDocumented('/operations/{operationId}', 'get', result);
  return result;
}

/** The L1 error body: the code, its status, and the catalogue's four fields. */
export function expectError(
  result: HttpResult<LensBody>,
  httpStatus: number,
  code: string,
  retryable: boolean,
) {
  expect(result.status, JSON.stringify(result.body)).toBe(httpStatus);
  expect(result.body.success).toBe(false);
  expect(result.body.error).toEqual({ code, message: expect.any(String), httpStatus, retryable });
}

/** The whole body of a 400 INVALID_REQUEST whose message names `what` (and nothing else in it). */
export const invalidRequestNaming = (what: string) => ({
  success: false,
  error: {
    code: 'INVALID_REQUEST',
    message: expect.stringContaining(what),
    httpStatus: 400,
    retryable: false,
  },
});

/** Polls the status endpoint until the operation is in `wanted` (or fails the test). */
export async function waitForStatus(
  token: string,
  operationId: string,
  wanted: Envelope['status'] | Envelope['status'][],
  timeoutMs = 20_000,
): Promise<Envelope> {
  const statuses = Array.isArray(wanted) ? wanted : [wanted];
  const read = async () => {
    const result = await status(token, operationId);
    expect(result.status).toBe(200);
    return result.body.data!;
  };
  return eventually(
    read,
    (op) => statuses.includes(op.status),
    `operation ${operationId} ${statuses.join('|')}`,
    timeoutMs,
    100,
  );
}

/**
 * A call's terminal envelope: the answer itself, or (when the machine is so loaded that it was a
 * 202) the status endpoint's once the operation has finished.
 */
export async function settled(token: string, result: HttpResult<LensBody>): Promise<Envelope> {
  const envelope = result.body.data!;
  if (result.status !== 202) return envelope;
  return waitForStatus(token, envelope.operationId, ['SUCCEEDED', 'FAILED']);
}

/**
 * Puts an operation inserted by hand on the lease sweep's and the reconciler's work list, as
 * `lens_start_operation` does for every operation it starts (migration operation_open).
 */
export async function listOpen(sql: Sql, operationId: string): Promise<void> {
  await sql.query(
    `insert into operation_open (operation_id, created_at, reconcile)
       select id, created_at, status = 'RECONCILIATION_REQUIRED' from operation where id = $1`,
    [operationId],
  );
}

/**
 * Leaves an accounts.profile operation in the database the way a crashed process would: accepted
 * (credits reserved, ledger entry written) and then never finished. `input` is what is stored;
 * the input hash is always that of the valid `{accountRef: {handle}}` input, so a REST call with
 * the same key replays it.
 */
export async function forceOperation(
  sql: Sql,
  options: {
    tenantId: string;
    handle: string;
    status: 'RUNNING' | 'RECONCILIATION_REQUIRED';
    idempotencyKey?: string;
    storedInput?: unknown;
    /** When its lease ends, from now (default: a minute ago, as a crash leaves it). */
    leaseSeconds?: number;
  },
): Promise<{ operationId: string; idempotencyKey: string }> {
  const operationId = randomUUID();
  const idempotencyKey = options.idempotencyKey ?? randomUUID();
  const input = { accountRef: { handle: options.handle }, detail: 'standard' };
  await sql.query('begin');
  try {
    await sql.query(
      `insert into operation (id, tenant_id, idempotency_key, operation_name, input, input_hash,
         status, credits_reserved, lease_expires_at, attempt_owner, attempts, credential_id)
       values ($1, $2, $3, 'accounts.profile', $4, $5, $6, 1, now() + make_interval(secs => $7),
         'crashed-process:job0', 1, (select id from api_key where tenant_id = $2 limit 1))`,
      [
        operationId,
        options.tenantId,
        idempotencyKey,
        JSON.stringify(options.storedInput ?? input),
        inputHash('accounts.profile', input),
        options.status,
        options.leaseSeconds ?? -60,
      ],
    );
    const [row] = await sql.query<{ credit_balance: string }>(
      `update tenant set credit_balance = credit_balance - 1 where id = $1 returning credit_balance`,
      [options.tenantId],
    );
    await sql.query(
      `insert into credit_ledger_entry (tenant_id, operation_id, kind, amount, balance_after)
       values ($1, $2, 'RESERVE', -1, $3)`,
      [options.tenantId, operationId, row!.credit_balance],
    );
    await listOpen(sql, operationId);
    await sql.query('commit');
  } catch (error) {
    await sql.query('rollback');
    throw error;
  }
  return { operationId, idempotencyKey };
}

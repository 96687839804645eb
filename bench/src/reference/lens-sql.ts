import type pg from 'pg';

/**
 * The reference's lens statements: named (prepared once per connection), each one round trip.
 * They do what the billed call must durably do on the project's own tables: find the key's
 * tenant, answer a replay from one indexed look-up, reserve the credit with the operation row
 * and its ledger entry (one statement, one commit), record the observation only when newer, and
 * settle the operation with its ledger entry (one statement, one commit).
 */
export const KEY_TENANT: pg.QueryConfig = {
  name: 'key_tenant',
  text: `select t.id, k.id as credential_id, t.permissions, t.rate_limit_per_minute
         from api_key k join tenant t on t.id = k.tenant_id
         where k.key_hash = $1 and k.revoked_at is null`,
};

export const REPLAY: pg.QueryConfig = {
  name: 'replay',
  text: `select id, operation_name, status, result, error, credits_reserved, credits_charged,
                credits_refunded, observed_at, input_hash
         from operation where tenant_id = $1 and idempotency_key = $2`,
};

export const STATUS: pg.QueryConfig = {
  name: 'status',
  text: `select id, operation_name, status, result, error, credits_reserved, credits_charged,
                credits_refunded, observed_at
         from operation where id = $1 and tenant_id = $2`,
};

/** $1 tenant, $2 operation id, $3 key, $4 name, $5 input, $6 input hash, $7 credits, $8 credential. */
export const START: pg.QueryConfig = {
  name: 'start',
  text: `with t as (
           update tenant set credit_balance = credit_balance - $7
           where id = $1 and credit_balance >= $7 returning credit_balance),
         o as (
           insert into operation (id, tenant_id, idempotency_key, operation_name, input, input_hash,
                                  status, credits_reserved, lease_expires_at, attempt_owner,
                                  attempts, price_base, price_per_item, credential_id)
           select $2, $1, $3, $4, $5, $6, 'RUNNING', $7, now() + interval '30 seconds',
                  'reference', 1, $7, 0, $8 from t
           on conflict (tenant_id, idempotency_key) do nothing returning id)
         insert into credit_ledger_entry (tenant_id, operation_id, kind, amount, balance_after)
         select $1, o.id, 'RESERVE', -$7, t.credit_balance from o, t returning operation_id`,
};

/** $1 account id, $2 handle, $3 summary, $4 observed at: written only when newer. */
export const OBSERVE: pg.QueryConfig = {
  name: 'observe',
  text: `insert into account_observation (account_id, handle, summary, observed_at)
         values ($1, $2, $3, $4)
         on conflict (account_id) do update set handle = excluded.handle,
           summary = excluded.summary, observed_at = excluded.observed_at
         where account_observation.observed_at < excluded.observed_at`,
};

/** $1 operation, $2 tenant, $3 result, $4 charged, $5 observed at. */
export const SETTLE: pg.QueryConfig = {
  name: 'settle',
  text: `with o as (
           update operation set status = 'SUCCEEDED', result = $3, credits_charged = $4,
             credits_refunded = credits_reserved - $4, observed_at = $5, updated_at = now(),
             lease_expires_at = null
           where id = $1 and status = 'RUNNING' returning id)
         insert into credit_ledger_entry (tenant_id, operation_id, kind, amount, balance_after)
         select $2, o.id, 'CHARGE', 0, t.credit_balance from o, tenant t where t.id = $2`,
};

export interface OperationRow {
  id: string;
  operation_name: string;
  status: string;
  result: Record<string, unknown> | null;
  credits_reserved: string;
  credits_charged: string;
  credits_refunded: string;
}

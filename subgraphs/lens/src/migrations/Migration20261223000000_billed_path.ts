import { Migration } from '@mikro-orm/migrations';

/**
 * The billed call in two statements (issue 14): `lens_start_operation` (idempotency, reservation,
 * RESERVE ledger entry, lease of the inline attempt) and `lens_settle_operation` (terminal status,
 * RELEASE and CHARGE ledger entries, balance), each one function call in its own transaction,
 * so each is one commit; and `lens_record_observations`, the account-observation upsert outside
 * the money transaction, committed asynchronously (it is a cache of what was seen, not money).
 */
export class Migration20261223000000_billed_path extends Migration {
  override async up(): Promise<void> {
    // The two credit movements of an operation (DESIGN.md L3), used by the start and the
    // settlement below and by CreditsService: one definition. The reservation is a conditional
    // update under the tenant row lock, so no concurrency pushes a balance below zero.
    this.addSql(`
      create function lens_reserve_credits(p_tenant uuid, p_operation uuid, p_amount bigint)
      returns boolean language plpgsql as $$
      declare
        v_balance bigint;
      begin
        update tenant set credit_balance = credit_balance - p_amount
          where id = p_tenant and credit_balance >= p_amount
          returning credit_balance into v_balance;
        if not found then
          return false;
        end if;
        insert into credit_ledger_entry (tenant_id, operation_id, kind, amount, balance_after)
          values (p_tenant, p_operation, 'RESERVE', -p_amount, v_balance);
        return true;
      end $$;`);
    // RELEASE the whole reservation, then CHARGE what was delivered: one balance update.
    this.addSql(`
      create function lens_settle_credits(
        p_tenant uuid, p_operation uuid, p_reserved bigint, p_charged bigint)
      returns void language plpgsql as $$
      declare
        v_balance bigint;
      begin
        if p_reserved = 0 and p_charged = 0 then
          return;
        end if;
        update tenant set credit_balance = credit_balance + p_reserved - p_charged
          where id = p_tenant returning credit_balance into v_balance;
        if p_reserved > 0 then
          insert into credit_ledger_entry (tenant_id, operation_id, kind, amount, balance_after)
            values (p_tenant, p_operation, 'RELEASE', p_reserved, v_balance + p_charged);
        end if;
        if p_charged > 0 then
          insert into credit_ledger_entry (tenant_id, operation_id, kind, amount, balance_after)
            values (p_tenant, p_operation, 'CHARGE', -p_charged, v_balance);
        end if;
      end $$;`);
    // Replay first: an existing (tenant, key) is returned as it is, writing nothing (the insert
    // finds the conflict in the unique index before it writes). A concurrent start with the same
    // key waits on the unique index for the first one's commit, then replays it. Refusal 402 is
    // SQLSTATE LN402, raised after the insert, so the whole statement writes nothing.
    this.addSql(`
      create function lens_start_operation(
        p_id uuid, p_tenant uuid, p_key text, p_name text, p_input jsonb, p_hash text,
        p_reserved bigint, p_price_base integer, p_price_per_item integer, p_lease_ms integer,
        p_owner text)
      returns setof operation language plpgsql as $$
      declare
        v_op operation;
      begin
        insert into operation (id, tenant_id, idempotency_key, operation_name, input, input_hash,
          status, credits_reserved, price_base, price_per_item, lease_expires_at, attempt_owner,
          attempts)
        values (p_id, p_tenant, p_key, p_name, p_input, p_hash, 'RUNNING', p_reserved,
          p_price_base, p_price_per_item, now() + p_lease_ms * interval '1 millisecond', p_owner,
          case when p_owner is null then 0 else 1 end)
        on conflict (tenant_id, idempotency_key) do nothing
        returning * into v_op;
        if not found then
          return query select * from operation where tenant_id = p_tenant and idempotency_key = p_key;
          return;
        end if;
        if not lens_reserve_credits(p_tenant, p_id, p_reserved) then
          raise exception 'insufficient credits for % (needs %)', p_name, p_reserved
            using errcode = 'LN402';
        end if;
        return next v_op;
      end $$;`);
    // The first settlement wins: the status move is conditional on the operation not being
    // terminal, and credits move only when it matched (a later one returns no row).
    this.addSql(`
      create function lens_settle_operation(
        p_id uuid, p_status text, p_result jsonb, p_error jsonb, p_observed_at timestamptz,
        p_charged bigint)
      returns setof operation language plpgsql as $$
      declare
        v_op operation;
      begin
        update operation set status = p_status, result = p_result, error = p_error,
          observed_at = p_observed_at, credits_charged = p_charged,
          credits_refunded = credits_reserved - p_charged, attempt_owner = null, updated_at = now()
        where id = p_id and status in ('RUNNING', 'RECONCILIATION_REQUIRED')
        returning * into v_op;
        if not found then
          return;
        end if;
        perform lens_settle_credits(v_op.tenant_id, p_id, v_op.credits_reserved, p_charged);
        return next v_op;
      end $$;`);
    // Newest observation wins, field by field (a null keeps the last value known). Rows whose
    // stored observation is newer are filtered out before the upsert, so they are not locked.
    this.addSql(`
      create function lens_record_observations(p_observed_at timestamptz, p_accounts jsonb)
      returns void language plpgsql as $$
      begin
        perform set_config('synchronous_commit', 'off', true);
        insert into account_observation (account_id, handle, summary, observed_at)
        select x.account_id, x.handle, x.summary, p_observed_at
        from jsonb_to_recordset(p_accounts) as x(account_id text, handle text, summary jsonb)
        where not exists (select 1 from account_observation a
                          where a.account_id = x.account_id and a.observed_at > p_observed_at)
        order by x.account_id
        on conflict (account_id) do update set
          handle = coalesce(excluded.handle, account_observation.handle),
          summary = account_observation.summary || jsonb_strip_nulls(excluded.summary),
          observed_at = excluded.observed_at
        where account_observation.observed_at <= excluded.observed_at;
      end $$;`);
  }

  override async down(): Promise<void> {
    this.addSql(`
      drop function if exists lens_record_observations(timestamptz, jsonb);
      drop function if exists lens_settle_operation(uuid, text, jsonb, jsonb, timestamptz, bigint);
      drop function if exists lens_start_operation(uuid, uuid, text, text, jsonb, text, bigint,
        integer, integer, integer, text);
      drop function if exists lens_settle_credits(uuid, uuid, bigint, bigint);
      drop function if exists lens_reserve_credits(uuid, uuid, bigint);`);
  }
}

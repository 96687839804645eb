import { Migration } from '@mikro-orm/migrations';

/**
 * Issue 26: an operation keeps the W3C `traceparent` of the request that started it (null when
 * tracing is off), so an attempt made later by a job (after the reconciler took it over) shows in
 * that request's trace. `lens_start_operation` takes it as a twelfth argument; otherwise as the
 * billed_path migration wrote it.
 */
export class Migration20261228000000_operation_trace_context extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table operation add column trace_context text;`);
    this.addSql(
      `drop function lens_start_operation(uuid, uuid, text, text, jsonb, text, bigint, integer, integer, integer, text);`,
    );
    this.addSql(`
      create function lens_start_operation(
        p_id uuid, p_tenant uuid, p_key text, p_name text, p_input jsonb, p_hash text,
        p_reserved bigint, p_price_base integer, p_price_per_item integer, p_lease_ms integer,
        p_owner text, p_trace_context text)
      returns setof operation language plpgsql as $$
      declare
        v_op operation;
      begin
        insert into operation (id, tenant_id, idempotency_key, operation_name, input, input_hash,
          status, credits_reserved, price_base, price_per_item, lease_expires_at, attempt_owner,
          attempts, trace_context)
        values (p_id, p_tenant, p_key, p_name, p_input, p_hash, 'RUNNING', p_reserved,
          p_price_base, p_price_per_item, now() + p_lease_ms * interval '1 millisecond', p_owner,
          case when p_owner is null then 0 else 1 end, p_trace_context)
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
  }

  override async down(): Promise<void> {
    this.addSql(
      `drop function lens_start_operation(uuid, uuid, text, text, jsonb, text, bigint, integer, integer, integer, text, text);`,
    );
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
    this.addSql(`alter table operation drop column if exists trace_context;`);
  }
}

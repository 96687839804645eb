import { Migration } from '@mikro-orm/migrations';
import { insertOperationSql } from './Migration20270110000000_replay_probe.js';

/**
 * Customer accounts (issue 24): a tenant holds many credentials (named, rotatable, with a coarse
 * last-used time), every operation names the credential that started it (the usage view is
 * derived from operations, no counter is kept), top-ups carry a reason, and a tenant may set a
 * low-balance alert. The start statement takes the credential and stays one statement.
 */
export class Migration20261231000000_accounts extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      alter table api_key drop constraint api_key_kind_check;
      alter table api_key add constraint api_key_kind_check check (kind in ('rest', 'mcp', 'oauth'));
      alter table api_key add column name text, add column last_used_at timestamptz,
        add column expires_at timestamptz;
      update api_key set name = case kind when 'rest' then 'REST API key' else 'MCP token' end;
      alter table api_key alter column name set not null;
      alter table api_key add constraint api_key_name_check check (char_length(name) between 1 and 100);`);
    // Until now every tenant had exactly one credential, so each operation's is known exactly.
    // No foreign key: its check would lock the credential row on every billed call, and
    // credentials are never deleted (revoked only).
    this.addSql(`
      alter table operation add column credential_id uuid;
      update operation o set credential_id =
        (select k.id from api_key k where k.tenant_id = o.tenant_id order by k.created_at, k.id limit 1);
      alter table operation alter column credential_id set not null;`);
    this.addSql(`
      alter table credit_ledger_entry add column reason text;
      alter table tenant add column alert_email text, add column alert_below bigint
          check (alert_below >= 0),
        add column low_balance_armed boolean not null default false;`);
    this.addSql(`
      drop function lens_start_operation(uuid, uuid, text, text, jsonb, text, bigint, integer,
        integer, integer, text, text);`);
    // As before (billed_path, then operation_trace_context), plus the credential: stored on the operation, and its last-used
    // time moved on in the same transaction at most once a minute (a probe of the key's primary
    // key per call; a write, on a row no other billed statement locks, once a minute per key).
    this.addSql(`
      create function lens_start_operation(
        p_id uuid, p_tenant uuid, p_key text, p_name text, p_input jsonb, p_hash text,
        p_reserved bigint, p_price_base integer, p_price_per_item integer, p_lease_ms integer,
        p_owner text, p_trace_context text, p_credential uuid)
      returns setof operation language plpgsql as $$
      declare
        v_op operation;
      begin
        ${insertOperationSql('v_op')}
        if not found then
          return query select * from operation where tenant_id = p_tenant and idempotency_key = p_key;
          return;
        end if;
        if not lens_reserve_credits(p_tenant, p_id, p_reserved) then
          raise exception 'insufficient credits for % (needs %)', p_name, p_reserved
            using errcode = 'LN402';
        end if;
        update api_key set last_used_at = now()
          where id = p_credential
            and (last_used_at is null or last_used_at < now() - interval '1 minute');
        return next v_op;
      end $$;`);
  }

  override async down(): Promise<void> {
    this.addSql(`
      drop function if exists lens_start_operation(uuid, uuid, text, text, jsonb, text, bigint,
        integer, integer, integer, text, text, uuid);
      alter table tenant drop column alert_email, drop column alert_below,
        drop column low_balance_armed;
      alter table credit_ledger_entry drop column reason;
      alter table operation drop column credential_id;
      alter table api_key drop column name, drop column last_used_at, drop column expires_at;`);
  }
}

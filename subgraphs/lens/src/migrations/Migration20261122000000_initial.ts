import { Migration } from '@mikro-orm/migrations';

/** Tenants, keys, the credit ledger, operations and account observations. */
export class Migration20261122000000_initial extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table tenant (
        id uuid primary key,
        name text not null,
        plan text not null,
        permissions text[] not null,
        rate_limit_per_minute integer not null check (rate_limit_per_minute > 0),
        credit_balance bigint not null check (credit_balance >= 0),
        created_at timestamptz not null default now()
      );`);
    this.addSql(`
      create table api_key (
        id uuid primary key,
        tenant_id uuid not null references tenant(id),
        kind text not null check (kind in ('rest', 'mcp')),
        key_prefix text not null,
        key_hash text not null unique,
        created_at timestamptz not null default now(),
        revoked_at timestamptz
      );`);
    this.addSql(`create index api_key_tenant_idx on api_key(tenant_id);`);
    this.addSql(`
      create table operation (
        id uuid primary key,
        tenant_id uuid not null references tenant(id),
        idempotency_key text not null check (char_length(idempotency_key) between 1 and 128),
        operation_name text not null,
        input jsonb not null,
        input_hash text not null,
        status text not null check (status in ('RUNNING', 'SUCCEEDED', 'FAILED', 'RECONCILIATION_REQUIRED')),
        result jsonb,
        error jsonb,
        credits_reserved bigint not null check (credits_reserved >= 0),
        credits_charged bigint not null default 0 check (credits_charged >= 0),
        credits_refunded bigint not null default 0 check (credits_refunded >= 0),
        observed_at timestamptz,
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now(),
        unique (tenant_id, idempotency_key),
        check (status in ('RUNNING', 'RECONCILIATION_REQUIRED')
               or credits_reserved = credits_charged + credits_refunded)
      );`);
    this.addSql(`
      create table credit_ledger_entry (
        id bigserial primary key,
        tenant_id uuid not null references tenant(id),
        operation_id uuid references operation(id),
        kind text not null check (kind in ('TOP_UP', 'RESERVE', 'RELEASE', 'CHARGE')),
        amount bigint not null,
        balance_after bigint not null check (balance_after >= 0),
        created_at timestamptz not null default now()
      );`);
    this.addSql(`create index credit_ledger_tenant_idx on credit_ledger_entry(tenant_id, id);`);
    this.addSql(`
      create function credit_ledger_append_only() returns trigger language plpgsql as $$
      begin
        raise exception 'credit_ledger_entry is append-only';
      end $$;`);
    this.addSql(`
      create trigger credit_ledger_append_only before update or delete on credit_ledger_entry
      for each row execute function credit_ledger_append_only();`);
    this.addSql(`
      create table account_observation (
        account_id text primary key,
        handle text,
        summary jsonb not null,
        observed_at timestamptz not null
      );`);
    this.addSql(
      `create index account_observation_handle_idx on account_observation(lower(handle));`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(
      'drop table if exists account_observation, credit_ledger_entry, operation, api_key, tenant cascade; drop function if exists credit_ledger_append_only();',
    );
  }
}

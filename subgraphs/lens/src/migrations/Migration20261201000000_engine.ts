import { Migration } from '@mikro-orm/migrations';

/**
 * The operations engine (issue 4): execution leases for the reconciler, the price in force when
 * an operation was accepted, the allowed status moves and credit rules as database invariants,
 * and the per-key rate-limit counters.
 */
export class Migration20261201000000_engine extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      alter table operation
        add column lease_expires_at timestamptz,
        add column attempt_owner text,
        add column attempts integer not null default 0 check (attempts >= 0),
        add column price_base integer check (price_base >= 0),
        add column price_per_item integer check (price_per_item >= 0),
        add constraint operation_credits_within_reservation
          check (credits_charged + credits_refunded <= credits_reserved);`);
    this.addSql(`update operation set lease_expires_at = now() where status = 'RUNNING';`);
    this.addSql(`
      alter table operation add constraint operation_running_has_lease
        check (status <> 'RUNNING' or lease_expires_at is not null);`);
    this.addSql(
      `create index operation_lease_idx on operation (lease_expires_at) where status = 'RUNNING';`,
    );
    this.addSql(
      `create index operation_reconciliation_idx on operation (created_at, id) where status = 'RECONCILIATION_REQUIRED';`,
    );
    this.addSql(
      `create index operation_tenant_created_idx on operation (tenant_id, created_at desc, id desc);`,
    );
    // DESIGN.md L6: RUNNING → SUCCEEDED | FAILED | RECONCILIATION_REQUIRED;
    // RECONCILIATION_REQUIRED → SUCCEEDED | FAILED; a terminal operation never changes again.
    this.addSql(operationGuardSql({ replace: false, workList: '' }));
    this.addSql(`
      create trigger operation_guard before update on operation
      for each row execute function operation_guard();`);
    this.addSql(`
      alter table credit_ledger_entry add constraint credit_ledger_entry_sign check (
        (kind in ('RESERVE', 'CHARGE') and amount <= 0) or (kind in ('RELEASE', 'TOP_UP') and amount >= 0));`);
    // One fixed one-minute window per API key (DESIGN.md L8), shared by every replica.
    this.addSql(`
      create table rate_limit_window (
        bucket text primary key,
        window_start timestamptz not null,
        hits integer not null check (hits >= 0)
      );`);
  }

  override async down(): Promise<void> {
    this.addSql(`
      drop table if exists rate_limit_window;
      alter table credit_ledger_entry drop constraint if exists credit_ledger_entry_sign;
      drop trigger if exists operation_guard on operation;
      drop function if exists operation_guard();
      drop index if exists operation_lease_idx, operation_reconciliation_idx, operation_tenant_created_idx;
      alter table operation
        drop constraint if exists operation_running_has_lease,
        drop constraint if exists operation_credits_within_reservation,
        drop column if exists lease_expires_at,
        drop column if exists attempt_owner,
        drop column if exists attempts,
        drop column if exists price_base,
        drop column if exists price_per_item;`);
  }
}

/**
 * The operation's guard (a trigger before every update of operation): the allowed status moves
 * and what an operation keeps; since migration operation_open (issue 27) also the move of the
 * lease sweep's and the reconciler's work list, `workList`, run when the status changes (the
 * guard runs for every update already, so the list costs no trigger call of its own).
 */
export function operationGuardSql({
  replace,
  workList,
}: {
  replace: boolean;
  workList: string;
}): string {
  return `
      create ${replace ? 'or replace ' : ''}function operation_guard() returns trigger language plpgsql as $$
      begin
        if old.status in ('SUCCEEDED', 'FAILED') then
          raise exception 'operation % is % and cannot change', old.id, old.status;
        end if;
        if old.status = 'RECONCILIATION_REQUIRED' and new.status = 'RUNNING' then
          raise exception 'operation % cannot move from RECONCILIATION_REQUIRED to RUNNING', old.id;
        end if;
        if new.tenant_id <> old.tenant_id or new.idempotency_key <> old.idempotency_key
           or new.input_hash <> old.input_hash or new.credits_reserved <> old.credits_reserved then
          raise exception 'operation % keeps its tenant, key, input and reservation', old.id;
        end if;${workList}
        return new;
      end $$;`;
}

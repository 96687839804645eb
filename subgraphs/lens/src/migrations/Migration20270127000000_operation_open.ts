import { Migration } from '@mikro-orm/migrations';

/** The statuses whose operations the lease sweep, the reconciler and the backlog gauge read. */
const OPEN = `('RUNNING', 'RECONCILIATION_REQUIRED')`;

/**
 * Issue 27 (billed call, third pass): the lease sweep's and the reconciler's work list leaves the
 * operation row. The partial indexes `operation_lease_idx` (`where status = 'RUNNING'`) and
 * `operation_reconciliation_idx` (`where status = 'RECONCILIATION_REQUIRED'`) put `status` among
 * the operation's indexed columns, so every settlement (RUNNING → SUCCEEDED/FAILED) was a non-HOT
 * update: a new entry in each of the operation's four other indexes per billed call. The list is
 * now `operation_open`: one row per operation while it is RUNNING or RECONCILIATION_REQUIRED,
 * kept by triggers on operation's status (so no writer, not even a hand-written SQL fix, can let
 * it drift), read through partial indexes of its own. The settlement then changes no indexed
 * column of operation (a HOT update, with `fillfactor` 80 leaving it room on the page), and the
 * lease heartbeat (`lease_expires_at`, no longer indexed) too. No primary key: each of the two
 * partial indexes finds the row its trigger deletes, so a start adds one index entry, not two.
 * docs/decisions.md, "Issue 27 (billed call, third pass)".
 */
export class Migration20270127000000_operation_open extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table operation_open (
        operation_id uuid not null,
        created_at timestamptz not null,
        reconcile boolean not null
      );`);
    // The sweep reads the RUNNING rows (a few: the calls in flight); the reconciler's queue and
    // gauge read the RECONCILIATION_REQUIRED rows in the queue's (created_at, id) order.
    this.addSql(
      `create index operation_open_running_idx on operation_open (operation_id) where not reconcile;`,
    );
    this
      .addSql(`create index operation_open_reconcile_idx on operation_open (created_at, operation_id)
      where reconcile;`);
    this.addSql(`
      insert into operation_open (operation_id, created_at, reconcile)
        select id, created_at, status = 'RECONCILIATION_REQUIRED' from operation
        where status in ${OPEN};`);
    // One function for the three triggers: the old status's row goes, the new status's comes.
    // Each delete names its partial index's predicate so that index finds the row.
    this.addSql(`
      create function lens_operation_open_sync() returns trigger language plpgsql as $$
      begin
        if tg_op <> 'INSERT' then
          if old.status = 'RUNNING' then
            delete from operation_open where operation_id = old.id and not reconcile;
          elsif old.status = 'RECONCILIATION_REQUIRED' then
            delete from operation_open
              where created_at = old.created_at and operation_id = old.id and reconcile;
          end if;
        end if;
        if tg_op <> 'DELETE' and new.status in ${OPEN} then
          insert into operation_open (operation_id, created_at, reconcile)
            values (new.id, new.created_at, new.status = 'RECONCILIATION_REQUIRED');
        end if;
        return null;
      end $$;`);
    // WHEN clauses are evaluated without a plpgsql call: an update that keeps the status (the
    // heartbeat, a claim) or an insert of a settled row costs nothing here.
    this.addSql(`
      create trigger operation_open_insert after insert on operation
        for each row when (new.status in ${OPEN}) execute function lens_operation_open_sync();
      create trigger operation_open_update after update of status on operation
        for each row when (old.status is distinct from new.status)
        execute function lens_operation_open_sync();
      create trigger operation_open_delete after delete on operation
        for each row when (old.status in ${OPEN}) execute function lens_operation_open_sync();`);
    this.addSql(`drop index operation_lease_idx, operation_reconciliation_idx;`);
    // Room on each new page for the settlement's new row version (it adds the result): a HOT
    // update needs the new version on the old one's page.
    this.addSql(`alter table operation set (fillfactor = 80);`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table operation reset (fillfactor);`);
    this.addSql(
      `create index operation_lease_idx on operation (lease_expires_at) where status = 'RUNNING';`,
    );
    this.addSql(
      `create index operation_reconciliation_idx on operation (created_at, id) where status = 'RECONCILIATION_REQUIRED';`,
    );
    this.addSql(`
      drop trigger operation_open_insert on operation;
      drop trigger operation_open_update on operation;
      drop trigger operation_open_delete on operation;
      drop function lens_operation_open_sync();
      drop table operation_open;`);
  }
}

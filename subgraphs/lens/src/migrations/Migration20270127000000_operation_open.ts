import { Migration } from '@mikro-orm/migrations';
import { operationGuardSql } from './Migration20261201000000_engine.js';
import { countingStartSql } from './Migration20270126000000_tenant_rate_window.js';

/**
 * Issue 27 (billed call, third pass): the lease sweep's and the reconciler's work list leaves the
 * operation row. The partial indexes `operation_lease_idx` (`where status = 'RUNNING'`) and
 * `operation_reconciliation_idx` (`where status = 'RECONCILIATION_REQUIRED'`) put `status` among
 * the operation's indexed columns, so every settlement (RUNNING → SUCCEEDED/FAILED) was a non-HOT
 * update: a new entry in each of the operation's four other indexes per billed call. The list is
 * now `operation_open`: one row per operation while it is RUNNING or RECONCILIATION_REQUIRED,
 * read through partial indexes of its own. The settlement then changes no indexed column of
 * operation (a HOT update, with `fillfactor` 80 leaving it room on the page), nor does the lease
 * heartbeat (`lease_expires_at`, no longer indexed). The start writes the row; every status move
 * after it goes through `operation_guard`, the trigger that already runs before each update of
 * operation, so no writer (not even a hand-written fix) lets the list drift and no trigger call
 * is added. No primary key: each of the two partial indexes finds the row the guard deletes, so a
 * start adds one index entry, not two. docs/decisions.md, "Issue 27 (billed call, third pass)".
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
        where status in ('RUNNING', 'RECONCILIATION_REQUIRED');`);
    // A status move (the guard has refused every other: terminal rows never move, nor
    // RECONCILIATION_REQUIRED back to RUNNING): the old status's row goes, named by its partial
    // index's predicate so that index finds it, and a RECONCILIATION_REQUIRED row comes.
    this.addSql(
      operationGuardSql({
        replace: true,
        workList: `
        if new.status <> old.status then
          if old.status = 'RUNNING' then
            delete from operation_open where operation_id = old.id and not reconcile;
          else
            delete from operation_open
              where created_at = old.created_at and operation_id = old.id and reconcile;
          end if;
          if new.status = 'RECONCILIATION_REQUIRED' then
            insert into operation_open (operation_id, created_at, reconcile)
              values (new.id, new.created_at, true);
          end if;
        end if;`,
      }),
    );
    this.addSql(
      countingStartSql({
        replace: true,
        inlineCount: true,
        openRow: `        insert into operation_open (operation_id, created_at, reconcile)
          values (p_id, op.created_at, false);
`,
      }),
    );
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
    this.addSql(countingStartSql({ replace: true, openRow: '', inlineCount: false }));
    this.addSql(operationGuardSql({ replace: true, workList: '' }));
    this.addSql(`drop table operation_open;`);
  }
}

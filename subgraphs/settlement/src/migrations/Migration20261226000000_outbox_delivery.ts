import { Migration } from '@mikro-orm/migrations';

/**
 * Outbox delivery (issue 11, DESIGN.md S10): a message that keeps failing ends DEAD (the unused
 * FAILED status is renamed), with when it was last tried and when it died, so admins can list
 * and re-queue dead messages. Delivery jobs live in graphile-worker's schema, installed by
 * `migrateSettlement` after these migrations.
 */
export class Migration20261226000000_outbox_delivery extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table outbox drop constraint outbox_status_check;`);
    this.addSql(`update outbox set status = 'DEAD' where status = 'FAILED';`);
    this.addSql(`
      alter table outbox
        add constraint outbox_status_check check (status in ('PENDING', 'SENT', 'DEAD')),
        add column last_attempt_at timestamptz,
        add column dead_at timestamptz,
        add constraint outbox_dead_at_check check ((status = 'DEAD') = (dead_at is not null));`);
    this.addSql(`create index outbox_dead_idx on outbox(id) where status = 'DEAD';`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index if exists outbox_dead_idx;`);
    this.addSql(`
      alter table outbox
        drop constraint if exists outbox_dead_at_check,
        drop constraint outbox_status_check,
        drop column if exists dead_at,
        drop column if exists last_attempt_at;`);
    this.addSql(`update outbox set status = 'FAILED' where status = 'DEAD';`);
    this.addSql(`
      alter table outbox
        add constraint outbox_status_check check (status in ('PENDING', 'SENT', 'FAILED'));`);
  }
}

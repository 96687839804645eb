import { Migration } from '@mikro-orm/migrations';

/**
 * Idempotency keys of settlement mutations (issue 23 item 5): one row per key of a principal
 * (role and subject), the fingerprint of the request it was first used with, and the answer once
 * there is one (null while the first request runs). Kept at least 24 hours (api/idempotency).
 */
export class Migration20261231000000_idempotency_key extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table idempotency_key (
        role text not null,
        subject text not null,
        key text not null check (length(key) between 1 and 255),
        fingerprint text not null,
        response jsonb,
        created_at timestamptz not null default now(),
        completed_at timestamptz,
        primary key (role, subject, key)
      );`);
    this.addSql(`create index idempotency_key_created_idx on idempotency_key(created_at);`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists idempotency_key;`);
  }
}

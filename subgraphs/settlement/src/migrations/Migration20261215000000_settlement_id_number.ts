import { Migration } from '@mikro-orm/migrations';

/**
 * The settlement list orders by the number of `SET<n>` (newest first). It used to compute
 * `cast(substring(id from 4) as bigint)` for every row of every page; the number is now a stored
 * column derived from the id by PostgreSQL itself (it cannot disagree with the id) and indexed,
 * so a page reads the index from its cursor on.
 */
export class Migration20261215000000_settlement_id_number extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      alter table settlement
        add column id_number bigint not null
          generated always as (cast(substring(id from 4) as bigint)) stored;`);
    this.addSql(`create unique index settlement_id_number_idx on settlement(id_number);`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index if exists settlement_id_number_idx;`);
    this.addSql(`alter table settlement drop column if exists id_number;`);
  }
}

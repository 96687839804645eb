import { Migration } from '@mikro-orm/migrations';

/**
 * The counters of the platform's rate limiter (`PostgresRateLimiter`, @campaign/platform) in the
 * settlement database: the public business verification allows 30 requests per client address
 * per 15 minutes (DESIGN.md S12), shared by every replica. The same table as lens's, one row per
 * bucket (`business_verify:<address>`).
 */
export class Migration20261220000000_rate_limit_window extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table rate_limit_window (
        bucket text primary key,
        window_start timestamptz not null,
        hits integer not null check (hits >= 0)
      );`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists rate_limit_window;`);
  }
}

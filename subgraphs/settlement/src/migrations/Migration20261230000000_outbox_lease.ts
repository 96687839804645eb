import { Migration } from '@mikro-orm/migrations';
import { OUTBOX_LEASE_COLUMNS_SQL } from '@campaign/platform';

/**
 * Issue 22: delivery claims a row with a lease (who holds it, until when) in a short transaction
 * instead of a row lock held across the outside call.
 */
export class Migration20261230000000_outbox_lease extends Migration {
  override async up(): Promise<void> {
    this.addSql(`${OUTBOX_LEASE_COLUMNS_SQL};`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table outbox drop column lease_owner, drop column lease_until;`);
  }
}

import { Migration } from '@mikro-orm/migrations';

/**
 * Issue 26: each outbox row keeps the W3C `traceparent` of the request that wrote it (null when
 * tracing is off), so its delivery, whenever it runs, is shown in that request's trace.
 */
export class Migration20261228000000_outbox_trace_context extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table outbox add column trace_context text;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table outbox drop column if exists trace_context;`);
  }
}

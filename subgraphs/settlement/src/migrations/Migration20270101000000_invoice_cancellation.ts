import { Migration } from '@mikro-orm/migrations';

/**
 * The cancellation tax invoice (issue 23 item 1): an issued tax invoice is never deleted; an
 * invoice cancelled with its settlement is annulled by a second (negative) tax invoice from the
 * same provider, requested under its own stable key (`<invoice number>-C1`). The invoice keeps
 * that issuance's key, status, number, time and failure, and the settlement that cancelled it (a
 * type change unlinks the invoice, and a provider result arriving later still finds the thread
 * to report in). The webhook ledger accepts the new kind.
 *
 * One recipient's e-mails are delivered in order (issue 23 item 6): the delivery asks for an
 * earlier PENDING message to the same recipient, through this partial index.
 */
export class Migration20270101000000_invoice_cancellation extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      alter table advertiser_invoice
        add column cancellation_tax_invoice_issuance_key text unique,
        add column cancellation_tax_invoice_status text
          check (cancellation_tax_invoice_status in ('PENDING', 'SUCCESS', 'FAILURE', 'CANCELLED')),
        add column cancellation_tax_invoice_number text,
        add column cancellation_tax_invoice_issued_at timestamptz,
        add column cancellation_tax_invoice_failure_code text,
        add column cancellation_tax_invoice_failure_message text,
        add column cancelled_for_settlement_id text references settlement(id),
        add constraint advertiser_invoice_cancellation_key_check
          check ((cancellation_tax_invoice_status is null)
            = (cancellation_tax_invoice_issuance_key is null));`);
    this.addSql(`
      alter table tax_invoice_webhook_event
        drop constraint if exists tax_invoice_webhook_event_kind_check,
        add constraint tax_invoice_webhook_event_kind_check
          check (kind in ('FORWARD', 'REVERSE', 'CANCELLATION'));`);
    this.addSql(
      `create index outbox_pending_recipient_idx on outbox(recipient, channel, id) where status = 'PENDING';`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop index if exists outbox_pending_recipient_idx;`);
    this.addSql(`
      alter table tax_invoice_webhook_event
        drop constraint if exists tax_invoice_webhook_event_kind_check,
        add constraint tax_invoice_webhook_event_kind_check check (kind in ('FORWARD', 'REVERSE'));`);
    this.addSql(`
      alter table advertiser_invoice
        drop constraint if exists advertiser_invoice_cancellation_key_check,
        drop column if exists cancellation_tax_invoice_issuance_key,
        drop column if exists cancellation_tax_invoice_status,
        drop column if exists cancellation_tax_invoice_number,
        drop column if exists cancellation_tax_invoice_issued_at,
        drop column if exists cancellation_tax_invoice_failure_code,
        drop column if exists cancellation_tax_invoice_failure_message,
        drop column if exists cancelled_for_settlement_id;`);
  }
}

import { Migration } from '@mikro-orm/migrations';

/**
 * The tax-invoice provider (issue 11, DESIGN.md S11):
 * - the advertiser invoice remembers its forward issuance: the caller-chosen key of the current
 *   attempt (unique, so a provider result finds exactly one invoice), the attempt number (a new
 *   key only after a failure, so at most one issuance can succeed), the provider's status and
 *   the failure it reported;
 * - the reverse issuance keeps the partner's tax invoice number and document once approved, so
 *   that a payout created later still gets them;
 * - partners may carry a business registration number (the reverse issuance is drafted in the
 *   partner's name and the provider needs it);
 * - every webhook event that was processed, by its event id: the primary key makes a repeated
 *   or concurrent delivery of one event a no-op inside the transaction that applies it; the
 *   deliveries are counted (a provider that repeats itself shows).
 */
export class Migration20261224000000_tax_invoice_provider extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      alter table advertiser_invoice
        add column tax_invoice_issuance_key text unique,
        add column tax_invoice_attempt integer not null default 0 check (tax_invoice_attempt >= 0),
        add column tax_invoice_status text
          check (tax_invoice_status in ('PENDING', 'SUCCESS', 'FAILURE', 'CANCELLED')),
        add column tax_invoice_failure_code text,
        add column tax_invoice_failure_message text,
        add constraint advertiser_invoice_tax_invoice_key_check
          check ((tax_invoice_status is null) = (tax_invoice_issuance_key is null));`);
    this.addSql(`
      alter table reverse_issuance
        add column tax_invoice_number text,
        add column document_url text;`);
    this.addSql(`
      alter table partner
        add column business_number text check (business_number ~ '^[0-9]{10}$');`);
    this.addSql(`
      create table tax_invoice_webhook_event (
        event_id text primary key,
        issuance_key text not null,
        kind text not null check (kind in ('FORWARD', 'REVERSE')),
        status text not null check (status in ('SUCCESS', 'FAILURE', 'CANCELLED')),
        applied boolean not null,
        occurred_at timestamptz not null,
        deliveries integer not null default 1 check (deliveries >= 1),
        received_at timestamptz not null default now(),
        last_received_at timestamptz not null default now()
      );`);
    this.addSql(
      `create index tax_invoice_webhook_event_key_idx on tax_invoice_webhook_event(issuance_key);`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists tax_invoice_webhook_event;`);
    this.addSql(`alter table partner drop column if exists business_number;`);
    this.addSql(`alter table reverse_issuance drop column if exists tax_invoice_number,
      drop column if exists document_url;`);
    this.addSql(`alter table advertiser_invoice
      drop constraint if exists advertiser_invoice_tax_invoice_key_check,
      drop column if exists tax_invoice_issuance_key,
      drop column if exists tax_invoice_attempt,
      drop column if exists tax_invoice_status,
      drop column if exists tax_invoice_failure_code,
      drop column if exists tax_invoice_failure_message;`);
  }
}

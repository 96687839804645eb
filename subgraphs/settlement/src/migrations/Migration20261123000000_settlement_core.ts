import { Migration } from '@mikro-orm/migrations';

/**
 * Settlement core (issue 6): advertiser invoices and partner payouts (spec 2.5, 2.5a), their
 * gapless monthly numbers (DESIGN S7), reverse-issuance records (spec 2.6), the append-only
 * audit trail (S8) and the notification outbox (S10).
 */
export class Migration20261123000000_settlement_core extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table document_counter (
        prefix text not null check (prefix in ('INV', 'PAY')),
        year_month char(7) not null check (year_month ~ '^[0-9]{4}-(0[1-9]|1[0-2])$'),
        last_value integer not null check (last_value > 0),
        primary key (prefix, year_month)
      );`);
    this.addSql(`
      create table advertiser_invoice (
        id bigint generated always as identity primary key,
        invoice_number text not null unique check (invoice_number ~ '^INV-[0-9]{4}-[0-9]{2}-[0-9]{4,}$'),
        advertiser_id bigint not null references advertiser(id),
        advertiser_name text not null,
        agency_id bigint references agency(id),
        invoice_type text not null default 'PER_CAMPAIGN' check (invoice_type in ('PER_CAMPAIGN', 'MONTHLY')),
        period_start timestamptz,
        period_end timestamptz,
        subtotal numeric(15,2) not null check (subtotal >= 0),
        tax_amount numeric(15,2) not null check (tax_amount >= 0),
        total_amount numeric(15,2) not null,
        tax_invoice_number text,
        tax_invoice_file_key text,
        tax_invoice_issued_at timestamptz,
        status text not null default 'DRAFT'
          check (status in ('DRAFT', 'ISSUED', 'PAID', 'OVERDUE', 'CANCELLED')),
        due_date timestamptz,
        paid_at timestamptz,
        bank_name text,
        account_number text,
        account_holder text,
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now(),
        check (subtotal + tax_amount = total_amount)
      );`);
    this.addSql(`
      create table partner_payout (
        id bigint generated always as identity primary key,
        payout_number text not null unique check (payout_number ~ '^PAY-[0-9]{4}-[0-9]{2}-[0-9]{4,}$'),
        partner_id bigint not null references partner(id),
        partner_name text not null,
        payout_type text not null default 'PER_CAMPAIGN' check (payout_type in ('PER_CAMPAIGN', 'MONTHLY')),
        period_start timestamptz,
        period_end timestamptz,
        subtotal numeric(15,2) not null check (subtotal >= 0),
        tax_amount numeric(15,2) not null check (tax_amount >= 0),
        total_amount numeric(15,2) not null,
        partner_invoice_number text,
        partner_invoice_file_key text,
        partner_invoice_received_at timestamptz,
        status text not null default 'PENDING'
          check (status in ('PENDING', 'INVOICE_RECEIVED', 'PROCESSING', 'COMPLETED', 'CANCELLED')),
        paid_at timestamptz,
        transaction_id text,
        bank_name text,
        account_number text,
        account_holder text,
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now(),
        check (total_amount + tax_amount = subtotal)
      );`);
    this.addSql(`
      alter table settlement
        add constraint settlement_advertiser_invoice_fk
          foreign key (advertiser_invoice_id) references advertiser_invoice(id),
        add constraint settlement_partner_payout_fk
          foreign key (partner_payout_id) references partner_payout(id);`);
    this.addSql(`create index settlement_invoice_idx on settlement(advertiser_invoice_id);`);
    this.addSql(`create index settlement_payout_idx on settlement(partner_payout_id);`);
    this.addSql(`create index settlement_created_idx on settlement(created_at);`);
    this.addSql(`
      create table reverse_issuance (
        id bigint generated always as identity primary key,
        settlement_id text not null unique references settlement(id),
        issuance_key text not null unique,
        status text not null default 'PENDING'
          check (status in ('PENDING', 'SUCCESS', 'FAILURE', 'CANCELLED')),
        grant_url text,
        grant_url_expires_at timestamptz,
        failure_code text,
        failure_message text,
        attempt integer not null default 1,
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now()
      );`);
    this.addSql(`
      create table settlement_audit (
        id bigint generated always as identity primary key,
        settlement_id text not null references settlement(id),
        action text not null,
        actor_subject text not null,
        actor_role text not null,
        from_status text,
        to_status text,
        from_settlement_type text,
        to_settlement_type text,
        reason text,
        details jsonb not null default '{}'::jsonb,
        created_at timestamptz not null default clock_timestamp()
      );`);
    this.addSql(
      `create index settlement_audit_settlement_idx on settlement_audit(settlement_id, id);`,
    );
    // Append-only: the database itself refuses to change or remove an audit entry.
    this.addSql(`
      create function settlement_audit_append_only() returns trigger language plpgsql as $$
      begin
        raise exception 'settlement_audit is append-only';
      end $$;`);
    this.addSql(`
      create trigger settlement_audit_no_change before update or delete on settlement_audit
        for each row execute function settlement_audit_append_only();`);
    this.addSql(`
      create trigger settlement_audit_no_truncate before truncate on settlement_audit
        for each statement execute function settlement_audit_append_only();`);
    this.addSql(`
      create table outbox (
        id bigint generated always as identity primary key,
        event text not null,
        channel text not null check (channel in ('EMAIL', 'TEAM_CHAT', 'TAX_INVOICE_PROVIDER')),
        recipient text not null,
        payload jsonb not null,
        status text not null default 'PENDING' check (status in ('PENDING', 'SENT', 'FAILED')),
        dedupe_key text not null unique,
        settlement_id text references settlement(id),
        attempts integer not null default 0,
        available_at timestamptz not null default now(),
        sent_at timestamptz,
        last_error text,
        created_at timestamptz not null default now()
      );`);
    this.addSql(
      `create index outbox_pending_idx on outbox(available_at) where status = 'PENDING';`,
    );
    this.addSql(`create index outbox_settlement_idx on outbox(settlement_id);`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists outbox, settlement_audit, reverse_issuance cascade;`);
    this.addSql(`drop function if exists settlement_audit_append_only();`);
    this.addSql(`alter table settlement drop constraint if exists settlement_advertiser_invoice_fk,
      drop constraint if exists settlement_partner_payout_fk;`);
    this.addSql(
      `drop table if exists partner_payout, advertiser_invoice, document_counter cascade;`,
    );
  }
}

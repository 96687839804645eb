import { Migration } from '@mikro-orm/migrations';

/** Agencies, advertisers, partners, campaigns and settlements (spec sections 2.3, 2.4). */
export class Migration20261122000000_initial extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table agency (
        id bigint generated always as identity primary key,
        name text not null,
        code text not null unique,
        business_name text not null,
        business_number text not null,
        representative_name text not null,
        bank_name text not null,
        account_number text not null,
        account_holder text not null,
        email text not null,
        is_default boolean not null default false,
        is_active boolean not null default true,
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now()
      );`);
    this.addSql(`create unique index agency_one_default on agency (is_default) where is_default;`);
    this.addSql(`
      create table advertiser (
        id bigint generated always as identity primary key,
        name text not null,
        email text not null,
        created_at timestamptz not null default now()
      );`);
    this.addSql(`
      create table partner (
        id bigint generated always as identity primary key,
        name text not null,
        entity_type text not null check (entity_type in ('CORPORATE_BUSINESS', 'INDIVIDUAL_BUSINESS', 'INDIVIDUAL')),
        commission_rate numeric(5,2) check (commission_rate between 0 and 100),
        email text not null,
        bank_name text,
        account_number text,
        account_holder text,
        account_id text,
        created_at timestamptz not null default now()
      );`);
    this.addSql(`create sequence campaign_number_seq;`);
    this.addSql(`
      create table campaign (
        id varchar(20) primary key default ('CAM' || nextval('campaign_number_seq')),
        partner_id bigint not null references partner(id),
        advertiser_id bigint not null references advertiser(id),
        agency_id bigint references agency(id),
        title text not null,
        price numeric(15,2) not null check (price >= 0),
        commission_rate numeric(5,2) check (commission_rate between 0 and 100),
        settlement_type text not null default 'PLATFORM_SETTLEMENT'
          check (settlement_type in ('PLATFORM_SETTLEMENT', 'DIRECT_INVOICE')),
        status text not null default 'CREATED' check (status in ('CREATED', 'UPLOADED', 'COMPLETED', 'CANCELLED')),
        quotation_id text,
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now()
      );`);
    this.addSql(`create index campaign_agency_idx on campaign(agency_id);`);
    this.addSql(`create sequence settlement_number_seq;`);
    this.addSql(`
      create table settlement (
        id text primary key default ('SET' || nextval('settlement_number_seq')),
        campaign_id varchar(20) not null unique references campaign(id),
        partner_id bigint not null references partner(id),
        agency_id bigint references agency(id),
        campaign_price numeric(15,2) not null check (campaign_price >= 0),
        commission_rate numeric(5,2) not null check (commission_rate between 0 and 100),
        commission_amount numeric(15,2) not null,
        settlement_amount numeric(15,2) not null,
        withholding_tax_rate numeric(5,2) not null check (withholding_tax_rate in (0, 3.3)),
        withholding_tax_amount numeric(15,2) not null,
        payout_amount numeric(15,2) not null,
        status text not null default 'SETTLEMENT_PENDING' check (status in (
          'SETTLEMENT_PENDING', 'AWAITING_ADVERTISER_PAYMENT', 'ADVERTISER_PAID',
          'PARTNER_PAYOUT_PROCESSING', 'SETTLEMENT_COMPLETED', 'SETTLEMENT_CANCELLED')),
        settlement_type text not null check (settlement_type in ('PLATFORM_SETTLEMENT', 'DIRECT_INVOICE')),
        advertiser_invoice_id bigint,
        partner_payout_id bigint,
        invoice_issued_at timestamptz,
        invoice_paid_at timestamptz,
        partner_invoice_received_at timestamptz,
        bank_name text,
        account_number text,
        account_holder text,
        requested_at timestamptz,
        processed_at timestamptz,
        completed_at timestamptz,
        admin_notes text,
        version integer not null default 1,
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now(),
        check (commission_amount + settlement_amount = campaign_price),
        check (withholding_tax_amount + payout_amount = settlement_amount)
      );`);
    this.addSql(`create index settlement_partner_idx on settlement(partner_id);`);
    this.addSql(`create index settlement_agency_idx on settlement(agency_id);`);
    this.addSql(`create index settlement_status_idx on settlement(status);`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists settlement, campaign, partner, advertiser, agency cascade;`);
    this.addSql(`drop sequence if exists settlement_number_seq, campaign_number_seq;`);
  }
}

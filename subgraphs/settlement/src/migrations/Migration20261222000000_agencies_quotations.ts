import { Migration } from '@mikro-orm/migrations';

/**
 * Agencies and quotations (issue 12): agency codes unique ignoring case (an index, so concurrent
 * creates cannot both win), the append-only change audit of agencies, campaigns and quotations
 * (DESIGN S8), and quotations with their lines (S14), linked both ways to the campaigns an
 * execution creates.
 */
export class Migration20261222000000_agencies_quotations extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table agency drop constraint if exists agency_code_key;`);
    this.addSql(`create unique index agency_code_lower_idx on agency (lower(code));`);
    this.addSql(`
      alter table agency add constraint agency_code_format
        check (code ~ '^[A-Za-z0-9_-]{2,30}$');`);
    this.addSql(`
      create table change_audit (
        id bigint generated always as identity primary key,
        entity_type text not null check (entity_type in ('AGENCY', 'CAMPAIGN', 'QUOTATION')),
        entity_id text not null,
        action text not null,
        actor_subject text not null,
        actor_role text not null,
        before jsonb,
        after jsonb,
        reason text,
        created_at timestamptz not null default clock_timestamp()
      );`);
    this.addSql(
      `create index change_audit_entity_idx on change_audit(entity_type, entity_id, id);`,
    );
    this.addSql(`
      create function change_audit_append_only() returns trigger language plpgsql as $$
      begin
        raise exception 'change_audit is append-only';
      end $$;`);
    this.addSql(`
      create trigger change_audit_no_change before update or delete on change_audit
        for each row execute function change_audit_append_only();`);
    this.addSql(`
      create trigger change_audit_no_truncate before truncate on change_audit
        for each statement execute function change_audit_append_only();`);
    this.addSql(`create sequence quotation_number_seq;`);
    this.addSql(`
      create table quotation (
        id text primary key default ('QUO' || nextval('quotation_number_seq')),
        id_number bigint not null generated always as (cast(substring(id from 4) as bigint)) stored,
        status text not null default 'DRAFT'
          check (status in ('DRAFT', 'SENT', 'ACCEPTED', 'EXECUTED', 'CANCELLED')),
        advertiser_id bigint not null references advertiser(id),
        agency_id bigint references agency(id),
        title text not null,
        valid_until date not null,
        supply_amount numeric(15,2) not null check (supply_amount >= 0),
        vat_amount numeric(15,2) not null check (vat_amount >= 0),
        total_amount numeric(15,2) not null,
        version integer not null default 1,
        executed_at timestamptz,
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now(),
        check (supply_amount + vat_amount = total_amount),
        check ((status = 'EXECUTED') = (executed_at is not null))
      );`);
    this.addSql(`create unique index quotation_id_number_idx on quotation(id_number);`);
    this.addSql(`create index quotation_agency_idx on quotation(agency_id);`);
    this.addSql(`create index quotation_advertiser_idx on quotation(advertiser_id);`);
    this.addSql(`create index quotation_created_idx on quotation(created_at);`);
    this.addSql(`
      create table quotation_line (
        id bigint generated always as identity primary key,
        quotation_id text not null references quotation(id) on delete cascade,
        line_no integer not null check (line_no between 1 and 1000),
        partner_id bigint not null references partner(id),
        deliverable text not null,
        price numeric(15,2) not null check (price >= 0),
        commission_rate numeric(5,2) check (commission_rate between 0 and 100),
        campaign_id varchar(20) unique references campaign(id),
        unique (quotation_id, line_no)
      );`);
    this.addSql(`
      alter table campaign add constraint campaign_quotation_fk
        foreign key (quotation_id) references quotation(id);`);
    this.addSql(`create index campaign_quotation_idx on campaign(quotation_id);`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index if exists campaign_quotation_idx;`);
    this.addSql(`alter table campaign drop constraint if exists campaign_quotation_fk;`);
    this.addSql(`drop table if exists quotation_line, quotation, change_audit cascade;`);
    this.addSql(`drop sequence if exists quotation_number_seq;`);
    this.addSql(`drop function if exists change_audit_append_only();`);
    this.addSql(`alter table agency drop constraint if exists agency_code_format;`);
    this.addSql(`drop index if exists agency_code_lower_idx;`);
    this.addSql(`alter table agency add constraint agency_code_key unique (code);`);
  }
}

/**
 * The `outbox` table a service's database needs for the platform's delivery, for a migration to
 * run (settlement's table predates this and reached the same columns through its migrations).
 * `subject` is the column the handlers get as `row.subject` (OutboxDefinition.subjectColumn).
 */
export function outboxTableSql(subject: { column: string; type: string }): string[] {
  return [
    `create table outbox (
      id bigint generated always as identity primary key,
      event text not null,
      channel text not null,
      recipient text not null,
      payload jsonb not null,
      status text not null default 'PENDING' check (status in ('PENDING', 'SENT', 'DEAD')),
      dedupe_key text not null unique,
      ${subject.column} ${subject.type},
      attempts integer not null default 0,
      available_at timestamptz not null default now(),
      lease_owner text,
      lease_until timestamptz,
      last_attempt_at timestamptz,
      sent_at timestamptz,
      dead_at timestamptz,
      last_error text,
      trace_context text,
      created_at timestamptz not null default now(),
      check ((status = 'DEAD') = (dead_at is not null))
    )`,
    `create index outbox_pending_idx on outbox(available_at) where status = 'PENDING'`,
    `create index outbox_dead_idx on outbox(id) where status = 'DEAD'`,
  ];
}

/** What settlement's existing table gains for leases (Migration20261230000000_outbox_lease). */
export const OUTBOX_LEASE_COLUMNS_SQL =
  'alter table outbox add column lease_owner text, add column lease_until timestamptz';

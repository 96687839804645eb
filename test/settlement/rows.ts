import { connectSql, type Sql } from '@campaign/stack';
import { stack } from '../support/clients.js';
import { eventually } from '../support/wait.js';

/** The settlement tests' look at the database: rows a call wrote, and a row lock held on purpose. */

/** A client on the stack's settlement database, for asserting rows. */
export function database(): Promise<Sql> {
  return connectSql(stack().settlementDatabase);
}

/**
 * Runs `send` while a transaction of its own holds the settlement's row lock, and lets go once
 * `count` sessions wait on it (directly or behind one another): every request has then read the
 * same version and is at its claim, so the outcome of the race is decided, not left to timing.
 */
export async function whileRowHeld<T>(
  db: Sql,
  settlementId: string,
  count: number,
  send: () => Promise<T>[],
): Promise<T[]> {
  const holder = await database();
  try {
    await holder.query('begin');
    await holder.query('select id from settlement where id = $1 for update', [settlementId]);
    const [{ pid }] = (await holder.query('select pg_backend_pid() as pid')) as [{ pid: number }];
    const pending = send();
    const blocked = async () => {
      const [row] = await db.query<{ n: number }>(
        `with recursive blocked(pid) as (
           select pid from pg_stat_activity where $1 = any(pg_blocking_pids(pid))
           union
           select a.pid from pg_stat_activity a
             join blocked b on b.pid = any(pg_blocking_pids(a.pid))
         ) select count(*)::int as n from blocked`,
        [pid],
      );
      return row!.n;
    };
    await eventually(
      blocked,
      (n) => n >= count,
      `${count} requests waiting on the row`,
      30_000,
      20,
    );
    await holder.query('commit');
    return await Promise.all(pending);
  } finally {
    await holder.end();
  }
}

export interface OutboxRow extends Record<string, unknown> {
  event: string;
  channel: string;
  recipient: string;
  payload: Record<string, unknown>;
  status: string;
  dedupe_key: string;
}

export async function outboxOf(db: Sql, settlementId: string): Promise<OutboxRow[]> {
  const rows = await db.query<OutboxRow>(
    `select event, channel, recipient, payload, status, dedupe_key from outbox
     where settlement_id = $1 order by id`,
    [settlementId],
  );
  return rows;
}

export interface AuditRow extends Record<string, unknown> {
  action: string;
  from_status: string | null;
  to_status: string | null;
}

export function auditOf(db: Sql, settlementId: string): Promise<AuditRow[]> {
  return db.query<AuditRow>(
    `select action, from_status, to_status, actor_role, reason from settlement_audit
     where settlement_id = $1 order by id`,
    [settlementId],
  );
}

/**
 * Row counts of every table a call on these settlements may write, limited to the rows of these
 * settlements (their own row and version, campaign, invoice, payout, reverse issuance, audit and
 * outbox) so that test files running in parallel do not disturb the comparison.
 */
export async function rowCounts(
  db: Sql,
  settlementIds: string[],
): Promise<Record<string, unknown>> {
  const [row] = await db.query(
    `select
       (select count(*)::int from settlement where id = any($1)) as settlements,
       (select coalesce(sum(version), 0)::int from settlement where id = any($1)) as versions,
       (select string_agg(status, ',' order by id) from settlement where id = any($1)) as statuses,
       (select string_agg(c.status, ',' order by s.id) from settlement s
          join campaign c on c.id = s.campaign_id where s.id = any($1)) as campaigns,
       (select count(*)::int from advertiser_invoice i where exists
          (select 1 from settlement s where s.id = any($1) and s.advertiser_invoice_id = i.id)) as invoices,
       (select count(*)::int from partner_payout p where exists
          (select 1 from settlement s where s.id = any($1) and s.partner_payout_id = p.id)) as payouts,
       (select count(*)::int from reverse_issuance where settlement_id = any($1)) as reverse_issuances,
       (select count(*)::int from settlement_audit where settlement_id = any($1)) as audit_entries,
       (select count(*)::int from outbox where settlement_id = any($1)) as outbox_rows`,
    [settlementIds],
  );
  return row!;
}

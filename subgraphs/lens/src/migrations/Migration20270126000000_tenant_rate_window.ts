import { Migration } from '@mikro-orm/migrations';
import { fixedWindowResetSql, fixedWindowSql } from '@campaign/platform';
import { LENS_DELIVER_OUTBOX_TASK, LOW_BALANCE_EVENT } from '../alert/low-balance.outbox.js';
import { RESERVE_CREDITS_WITH_ALERT } from './Migration20261231100000_low_balance_alert.js';
import { insertOperationSql, startOperationSql } from './Migration20270110000000_replay_probe.js';

const START_ARGS = `uuid, uuid, text, text, jsonb, text, bigint, integer, integer, integer, text,
  text, uuid`;

/** The tenant's window after one more request (the platform limiter's one definition). */
const next = fixedWindowSql('t.rate_window_start', 't.rate_window_hits', '60');

/** One request counted in `p_tenant`'s window, its state into plpgsql `rate_hits` etc. */
const COUNT_REQUEST = `update tenant t set rate_window_start = ${next.start}, rate_window_hits = ${next.hits}
          where t.id = p_tenant
          returning t.rate_window_hits, ${fixedWindowResetSql('t.rate_window_start', '60')},
            t.rate_limit_per_minute
          into rate_hits, rate_reset, rate_limit;`;

/**
 * Issue 27 (billed call, second pass): the tenant's rate-limit window (DESIGN.md L8, per tenant,
 * one minute) moves from a `rate_limit_window` row onto the tenant row, and the start statement
 * counts the request itself. A billed call's count and reservation are then one update of one
 * row (one new row version, where the count's own upsert made a second hot row), in the start's
 * transaction (one statement and one commit fewer per call and per replay). The order of checks
 * stays L2's: the count comes first and stays when the call is refused (429, 402), because a
 * refusal is an answer, not an exception that rolls the count back. docs/decisions.md,
 * "Issue 27 (billed call, second pass)".
 */
export class Migration20270126000000_tenant_rate_window extends Migration {
  override async up(): Promise<void> {
    // '-infinity': a window that ended long ago, so the first request starts one.
    this.addSql(`
      alter table tenant
        add column rate_window_start timestamptz not null default '-infinity',
        add column rate_window_hits integer not null default 0 check (rate_window_hits >= 0);`);
    // The windows open at deploy time carry over: no tenant gains a fresh minute from it.
    this.addSql(`
      update tenant t set rate_window_start = w.window_start, rate_window_hits = w.hits
        from rate_limit_window w where w.bucket = 'tenant:' || t.id;`);
    this.addSql(`delete from rate_limit_window where bucket like 'tenant:%';`);
    // What a reservation writes besides the balance: its RESERVE entry and, when it crosses the
    // tenant's threshold with the alert armed, the disarm and the alert's message (as migration
    // low_balance_alert wrote it, now one definition for both reservations below).
    this.addSql(`
      create function lens_record_reservation(p_tenant uuid, p_operation uuid, p_amount bigint,
        p_balance bigint, p_armed boolean, p_below bigint, p_email text)
      returns void language plpgsql as $$
      declare
        v_crossing integer;
      begin
        insert into credit_ledger_entry (tenant_id, operation_id, kind, amount, balance_after)
          values (p_tenant, p_operation, 'RESERVE', -p_amount, p_balance);
        if p_armed and p_balance < p_below and p_email is not null then
          update tenant set low_balance_armed = false, low_balance_alerts = low_balance_alerts + 1
            where id = p_tenant returning low_balance_alerts into v_crossing;
          perform outbox_enqueue('${LOW_BALANCE_EVENT}', 'EMAIL', p_email,
            jsonb_build_object('tenantId', p_tenant, 'balance', p_balance, 'below', p_below),
            '${LOW_BALANCE_EVENT}:' || p_tenant || ':' || v_crossing, p_tenant,
            '${LENS_DELIVER_OUTBOX_TASK}');
        end if;
      end $$;`);
    this.addSql(`
      create or replace function lens_reserve_credits(p_tenant uuid, p_operation uuid, p_amount bigint)
      returns boolean language plpgsql as $$
      declare
        v_balance bigint;
        v_armed boolean;
        v_below bigint;
        v_email text;
      begin
        update tenant set credit_balance = credit_balance - p_amount
          where id = p_tenant and credit_balance >= p_amount
          returning credit_balance, low_balance_armed, alert_below, alert_email
          into v_balance, v_armed, v_below, v_email;
        if not found then
          return false;
        end if;
        perform lens_record_reservation(p_tenant, p_operation, p_amount, v_balance, v_armed,
          v_below, v_email);
        return true;
      end $$;`);
    // One request counted in the tenant's window (a capped credential's count, before its cap
    // check; a replay's and a refusal's inside the start). Asynchronous commit when it is the
    // statement's whole transaction: a counter, as the platform limiter's upsert.
    this.addSql(`
      create function lens_count_request(p_tenant uuid,
        out rate_hits integer, out rate_reset integer, out rate_limit integer)
      language plpgsql as $$
      begin
        ${COUNT_REQUEST}
        perform set_config('synchronous_commit', 'off', true);
      end $$;`);
    this.addSql(`drop function lens_start_operation(${START_ARGS});`);
    // The start: the count (p_count; false when lens_count_request ran already), the replay probe,
    // then the count and the reservation in one update of the tenant row, the operation, its
    // RESERVE entry and the inline attempt's lease. A refusal is returned (refusal
    // 'RATE_LIMITED' or 'INSUFFICIENT_CREDITS', op null) with the count committed and nothing else
    // written. The count's state comes back with every answer (rate_hits, rate_reset, rate_limit)
    // for the 429 the service builds. Commits: asynchronous for a refusal or a replay (a
    // counter) and for an inline start (as migration one_commit: its answer follows the
    // settlement's flush or FLUSH_WAL); synchronous for a start left to the reconciler.
    this.addSql(countingStartSql({ replace: false, openRow: '', inlineCount: false }));
  }

  override async down(): Promise<void> {
    this.addSql(`drop function lens_start_operation(${START_ARGS}, boolean);`);
    this.addSql(startOperationSql({ probeFirst: true, deferInlineCommit: true }));
    this.addSql(`drop function lens_count_request(uuid);`);
    this.addSql(RESERVE_CREDITS_WITH_ALERT);
    this.addSql(
      `drop function lens_record_reservation(uuid, uuid, bigint, bigint, boolean, bigint, text);`,
    );
    this.addSql(`
      insert into rate_limit_window (bucket, window_start, hits)
        select 'tenant:' || id, rate_window_start, rate_window_hits from tenant
        where rate_window_start > '-infinity';`);
    this.addSql(`alter table tenant drop column rate_window_start, drop column rate_window_hits;`);
  }
}

/**
 * `lens_start_operation` since this migration: the count, the replay probe, the count and the
 * reservation in one update of the tenant row, the operation, and (`openRow`, migration
 * operation_open) its row in the sweep's work list, then its RESERVE entry and lease.
 */
export function countingStartSql({
  replace,
  openRow,
  inlineCount,
}: {
  replace: boolean;
  openRow: string;
  /**
   * The count of a replay or a refusal as the update itself, not a call of `lens_count_request`
   * (migration operation_open: a nested plpgsql call was about 10 µs of a replay's 60).
   */
  inlineCount: boolean;
}): string {
  const count = inlineCount
    ? `            ${COUNT_REQUEST}`
    : `            select c.rate_hits, c.rate_reset, c.rate_limit into rate_hits, rate_reset, rate_limit
              from lens_count_request(p_tenant) c;`;
  return `
      create ${replace ? 'or replace ' : ''}function lens_start_operation(
        p_id uuid, p_tenant uuid, p_key text, p_name text, p_input jsonb, p_hash text,
        p_reserved bigint, p_price_base integer, p_price_per_item integer, p_lease_ms integer,
        p_owner text, p_trace_context text, p_credential uuid, p_count boolean)
      returns table (refusal text, rate_hits integer, rate_reset integer, rate_limit integer,
        op operation)
      language plpgsql as $$
      declare
        v_balance bigint;
        v_armed boolean;
        v_below bigint;
        v_email text;
      begin
        select * into op from operation o where o.tenant_id = p_tenant and o.idempotency_key = p_key;
        if found then
          -- L2: the limit comes before idempotency; the probe writes nothing, so order is kept.
          if p_count then
${count}
            if rate_hits > rate_limit then
              refusal := 'RATE_LIMITED';
              op := null;
            end if;
          end if;
          perform set_config('synchronous_commit', 'off', true);
          return next;
          return;
        end if;
        -- The count and the reservation: one row version. The update matches only when both
        -- pass; otherwise the request is counted alone below and refused.
        update tenant t set
            rate_window_start = case when p_count then ${next.start} else t.rate_window_start end,
            rate_window_hits = case when p_count then ${next.hits} else t.rate_window_hits end,
            credit_balance = t.credit_balance - p_reserved
          where t.id = p_tenant and t.credit_balance >= p_reserved
            and (not p_count or ${next.hits} <= t.rate_limit_per_minute)
          returning t.rate_window_hits, ${fixedWindowResetSql('t.rate_window_start', '60')},
            t.rate_limit_per_minute, t.credit_balance, t.low_balance_armed, t.alert_below,
            t.alert_email
          into rate_hits, rate_reset, rate_limit, v_balance, v_armed, v_below, v_email;
        if not found then
          if p_count then
${count}
          end if;
          refusal := case when p_count and rate_hits > rate_limit then 'RATE_LIMITED'
                          else 'INSUFFICIENT_CREDITS' end;
          perform set_config('synchronous_commit', 'off', true);
          return next;
          return;
        end if;
        ${insertOperationSql('op')}
        if not found then
          -- A concurrent start with this key committed first (the insert waited for it): give
          -- the reservation back before anything recorded it, and replay that operation.
          update tenant set credit_balance = credit_balance + p_reserved where id = p_tenant;
          select * into op from operation o where o.tenant_id = p_tenant and o.idempotency_key = p_key;
          perform set_config('synchronous_commit', 'off', true);
          return next;
          return;
        end if;
${openRow}        perform lens_record_reservation(p_tenant, p_id, p_reserved, v_balance, v_armed, v_below,
          v_email);
        update api_key set last_used_at = now()
          where id = p_credential
            and (last_used_at is null or last_used_at < now() - interval '1 minute');
        if p_owner is not null then
          perform set_config('synchronous_commit', 'off', true);
        end if;
        return next;
      end $$;`;
}

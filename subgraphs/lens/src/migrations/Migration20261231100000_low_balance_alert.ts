import { Migration } from '@mikro-orm/migrations';
import { outboxEnqueueFunctionSql, outboxTableSql } from '@campaign/platform';
import { LENS_DELIVER_OUTBOX_TASK, LOW_BALANCE_EVENT } from '../alert/low-balance.outbox.js';

/**
 * The low-balance alert (issue 24): the platform's outbox table in the lens database, its
 * enqueue function, and the reservation that writes the alert's message when it takes the
 * balance below the tenant's threshold, in the same transaction (so the charge and its e-mail
 * commit together, or neither does).
 */
export class Migration20261231100000_low_balance_alert extends Migration {
  override async up(): Promise<void> {
    const subject = { column: 'tenant_id', type: 'uuid' };
    for (const statement of outboxTableSql(subject)) this.addSql(statement);
    this.addSql(outboxEnqueueFunctionSql(subject));
    this.addSql(`alter table tenant add column low_balance_alerts integer not null default 0;`);
    // As billed_path's, plus the crossing. The update holds the tenant row until commit, so of
    // any number of concurrent reservations exactly one finds the alert armed with the balance
    // below the threshold; it disarms it and writes the message (dedupe key: the tenant and the
    // crossing's number). Other reservations pay only the comparison.
    this.addSql(RESERVE_CREDITS_WITH_ALERT);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table tenant drop column low_balance_alerts;`);
    this.addSql(
      `drop function if exists outbox_enqueue(text, text, text, jsonb, text, uuid, text);`,
    );
    this.addSql(`drop table if exists outbox;`);
  }
}

/** `lens_reserve_credits` as this migration wrote it (tenant_rate_window's down restores it). */
export const RESERVE_CREDITS_WITH_ALERT = `
      create or replace function lens_reserve_credits(p_tenant uuid, p_operation uuid, p_amount bigint)
      returns boolean language plpgsql as $$
      declare
        v_balance bigint;
        v_armed boolean;
        v_below bigint;
        v_email text;
        v_crossing integer;
      begin
        update tenant set credit_balance = credit_balance - p_amount
          where id = p_tenant and credit_balance >= p_amount
          returning credit_balance, low_balance_armed, alert_below, alert_email
          into v_balance, v_armed, v_below, v_email;
        if not found then
          return false;
        end if;
        insert into credit_ledger_entry (tenant_id, operation_id, kind, amount, balance_after)
          values (p_tenant, p_operation, 'RESERVE', -p_amount, v_balance);
        if v_armed and v_balance < v_below and v_email is not null then
          update tenant set low_balance_armed = false, low_balance_alerts = low_balance_alerts + 1
            where id = p_tenant returning low_balance_alerts into v_crossing;
          perform outbox_enqueue('${LOW_BALANCE_EVENT}', 'EMAIL', v_email,
            jsonb_build_object('tenantId', p_tenant, 'balance', v_balance, 'below', v_below),
            '${LOW_BALANCE_EVENT}:' || p_tenant || ':' || v_crossing, p_tenant,
            '${LENS_DELIVER_OUTBOX_TASK}');
        end if;
        return true;
      end $$;`;

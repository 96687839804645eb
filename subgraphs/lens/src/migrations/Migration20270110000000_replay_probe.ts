import { Migration } from '@mikro-orm/migrations';

/**
 * Issue 27: `lens_start_operation` answers a replay from one look-up of the (tenant, key) unique
 * index before it tries an insert. Until now a replay formed the new row and ran the insert's
 * conflict check, then looked the row up again: two index look-ups and the insert's machinery
 * for an answer that writes nothing. A new key pays one look-up that finds nothing. Otherwise as
 * the accounts migration wrote it: a start that races another with the same key still meets it
 * in the insert's conflict check (which waits for the other's commit) and replays it.
 */
export class Migration20270110000000_replay_probe extends Migration {
  override async up(): Promise<void> {
    this.addSql(startOperationSql({ probeFirst: true, deferInlineCommit: false }));
  }

  override async down(): Promise<void> {
    this.addSql(startOperationSql({ probeFirst: false, deferInlineCommit: false }));
  }
}

/**
 * `lens_start_operation` since the accounts migration, with the replay probe first or not, and
 * (migration one_commit, issue 27) the commit of an inline start deferred to the settlement's.
 */
export function startOperationSql({
  probeFirst,
  deferInlineCommit,
}: {
  probeFirst: boolean;
  deferInlineCommit: boolean;
}): string {
  const replay = `return query select * from operation
          where tenant_id = p_tenant and idempotency_key = p_key;`;
  return `
      create or replace function lens_start_operation(
        p_id uuid, p_tenant uuid, p_key text, p_name text, p_input jsonb, p_hash text,
        p_reserved bigint, p_price_base integer, p_price_per_item integer, p_lease_ms integer,
        p_owner text, p_trace_context text, p_credential uuid)
      returns setof operation language plpgsql as $$
      declare
        v_op operation;
      begin
        ${probeFirst ? `${replay}\n        if found then\n          return;\n        end if;` : ''}
        ${insertOperationSql('v_op')}
        if not found then
          ${replay}
          return;
        end if;
        if not lens_reserve_credits(p_tenant, p_id, p_reserved) then
          raise exception 'insufficient credits for % (needs %)', p_name, p_reserved
            using errcode = 'LN402';
        end if;
        update api_key set last_used_at = now()
          where id = p_credential
            and (last_used_at is null or last_used_at < now() - interval '1 minute');${
              deferInlineCommit
                ? `
        if p_owner is not null then
          perform set_config('synchronous_commit', 'off', true);
        end if;`
                : ''
            }
        return next v_op;
      end $$;`;
}

/**
 * The start's insert of its operation row (RUNNING, its lease, one attempt when an owner runs it
 * inline) into the plpgsql variable `target`; nothing when the (tenant, key) exists. One text for
 * every `lens_start_operation` since the accounts migration.
 */
export const insertOperationSql = (target: string): string =>
  `insert into operation (id, tenant_id, idempotency_key, operation_name, input, input_hash,
          status, credits_reserved, price_base, price_per_item, lease_expires_at, attempt_owner,
          attempts, trace_context, credential_id)
        values (p_id, p_tenant, p_key, p_name, p_input, p_hash, 'RUNNING', p_reserved,
          p_price_base, p_price_per_item, now() + p_lease_ms * interval '1 millisecond', p_owner,
          case when p_owner is null then 0 else 1 end, p_trace_context, p_credential)
        on conflict (tenant_id, idempotency_key) do nothing
        returning * into ${target};`;

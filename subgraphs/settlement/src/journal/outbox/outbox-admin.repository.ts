import type { EntityManager } from '@mikro-orm/postgresql';
import { settlementOutbox } from './outbox.js';

/** The statements of the admins' outbox views (outbox-admin.ts has the rules). */

const COLUMNS = `o.id::text as id, o.event, o.channel, o.recipient, o.settlement_id, o.dedupe_key,
  o.status, o.attempts, o.last_error, o.created_at, o.available_at, o.last_attempt_at, o.sent_at,
  o.dead_at`;

/** Which rows a principal sees: every row, or those of one agency's settlements. */
export type OutboxScope = { agencyId: null } | { agencyId: string; defaultAgencyId: string };

/**
 * The scope as SQL over `o`: an agency admin sees the rows of its agency's settlements (a null
 * agency is the default agency, DESIGN.md S9).
 */
function scopeSql(scope: OutboxScope): { sql: string; params: unknown[] } {
  if (scope.agencyId === null) return { sql: 'true', params: [] };
  return {
    sql: `exists (select 1 from settlement s where s.id = o.settlement_id
                    and coalesce(s.agency_id::text, ?) = ?)`,
    params: [scope.defaultAgencyId, scope.agencyId],
  };
}

export class OutboxAdminRepository {
  /** DEAD rows in scope, newest first, after the row id `after`; and how many there are. */
  async dead(
    em: EntityManager,
    scope: OutboxScope,
    args: { settlementId: string | null; after: string | null; limit: number },
  ): Promise<{ rows: Record<string, unknown>[]; total: number }> {
    const scoped = scopeSql(scope);
    const where = `o.status = 'DEAD' and (?::text is null or o.settlement_id = ?) and ${scoped.sql}`;
    const params = [args.settlementId, args.settlementId, ...scoped.params];
    const rows = await em.execute<Record<string, unknown>[]>(
      `select ${COLUMNS} from outbox o where ${where} and (?::bigint is null or o.id < ?::bigint)
        order by o.id desc limit ?`,
      [...params, args.after, args.after, args.limit],
    );
    const [count] = await em.execute<{ n: number }[]>(
      `select count(*)::int as n from outbox o where ${where}`,
      params,
    );
    return { rows, total: count?.n ?? 0 };
  }

  /** The row's status when it is in scope, locked for the caller's transaction; null if not. */
  async lockedStatus(tx: EntityManager, scope: OutboxScope, id: string): Promise<string | null> {
    const scoped = scopeSql(scope);
    const [row] = await tx.execute<{ status: string }[]>(
      `select o.status from outbox o where o.id = ? and ${scoped.sql} for update of o`,
      [id, ...scoped.params],
    );
    return row?.status ?? null;
  }

  /** A DEAD row's new round (the platform's statement) and the row as it is now. */
  async requeueDead(tx: EntityManager, id: string): Promise<Record<string, unknown>> {
    await settlementOutbox.requeueDead((sql, params) => tx.execute(sql, params), id);
    const [row] = await tx.execute<Record<string, unknown>[]>(
      `select ${COLUMNS} from outbox o where o.id = ?`,
      [id],
    );
    return row!;
  }
}

import type { EntityManager } from '@mikro-orm/postgresql';
import type { LensUsageRange, LensUsageRow } from '@campaign/schema';

interface Row {
  balance: string;
  rows: (Omit<LensUsageRow, 'charged' | 'refunded'> & { charged: number; refunded: number })[];
}

/**
 * The usage view, derived from the `operation` rows (each names its credential, its status and
 * the credits it charged and refunded: the very values its ledger entries carry, written by the
 * same statement), so nothing is counted on the billed path. One statement, one snapshot: the
 * rows and the balance agree. It reads the tenant's operations of the range through
 * `operation_tenant_created_idx`: its cost grows with the calls in the range.
 */
export class UsageRepository {
  async usage(
    em: EntityManager,
    tenantId: string,
    range: LensUsageRange,
  ): Promise<Row | undefined> {
    const [found] = await em.execute<Row[]>(
      `select t.credit_balance as balance, coalesce((
         select json_agg(u order by u.day, u."credentialId", u."operationName") from (
           select to_char(o.created_at at time zone 'UTC', 'YYYY-MM-DD') as day,
             o.credential_id as "credentialId", k.kind as "credentialKind",
             o.operation_name as "operationName", count(*) as calls,
             count(*) filter (where o.status = 'SUCCEEDED') as succeeded,
             count(*) filter (where o.status = 'FAILED') as failed,
             sum(o.credits_charged) as charged, sum(o.credits_refunded) as refunded
           from operation o join api_key k on k.id = o.credential_id
           where o.tenant_id = t.id
             and o.created_at >= ?::date::timestamp at time zone 'UTC'
             and o.created_at < (?::date + 1)::timestamp at time zone 'UTC'
           group by 1, 2, 3, 4) u), '[]') as rows
       from tenant t where t.id = ?`,
      [range.from, range.to, tenantId],
    );
    return found;
  }
}

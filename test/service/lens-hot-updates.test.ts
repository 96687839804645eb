import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { SocialUpstream } from '@campaign/lens';
import { lensServicesFor, restTenant } from '../support/lens-services.js';
import { useServiceDatabase } from '../support/service-database.js';

/**
 * Issue 27 (billed call, PostgreSQL's own work): the billed call updates the tenant row twice
 * (the start's count and reservation, the settlement's balance) and both must stay HOT updates
 * (no index entry, no new index page per call). A new index on a column those updates write
 * (the balance, the rate window, updated_at), or in an index's predicate, would silently turn
 * every billed call into index maintenance on the hottest row. The operation's settlement is
 * HOT too since its status left every index of operation (the lease sweep's and the reconciler's
 * work list is operation_open; docs/decisions.md, "Issue 27 (billed call, third pass)").
 */
const orm = useServiceDatabase('lens');
const services = lensServicesFor('lens-hot-updates-test', {} as SocialUpstream);

interface Counts {
  relname: string;
  upd: number;
  hot: number;
}

describe('HOT updates of the tenant and operation rows on the billed path', () => {
  it('N starts and settlements in one transaction: every update of the tenant and operation rows is HOT', async () => {
    const { tenantId } = await restTenant(services, orm().em.fork(), 'hot');
    const [key] = await orm()
      .em.fork()
      .execute<{ id: string }[]>(`select id from api_key where tenant_id = ?`, [tenantId]);
    const N = 5;
    // pg_stat_xact_user_tables counts this transaction's own row changes at once (the
    // cumulative statistics reach pg_stat_user_tables only when a backend flushes them).
    const trx = await orm().em.getKnex().transaction();
    try {
      for (let i = 0; i < N; i++) {
        const id = randomUUID();
        await trx.raw(
          `select * from lens_start_operation(?, ?, ?, 'accounts.profile', '{}'::jsonb, 'h', 2,
             1, 0, 30000, 'host:1:inline', null, ?, true)`,
          [id, tenantId, randomUUID(), key!.id],
        );
        await trx.raw(
          `select * from lens_settle_operation(?, 'SUCCEEDED', '{}'::jsonb, null, now(), 1)`,
          [id],
        );
      }
      const { rows } = await trx.raw<{ rows: Counts[] }>(
        `select relname, n_tup_upd::int as upd, n_tup_hot_upd::int as hot
           from pg_stat_xact_user_tables where relname in ('tenant', 'operation')
           order by relname`,
      );
      const [operation, tenant] = rows;
      // One settlement update per call, HOT: the operation's status is in none of its indexes
      // since the work list moved to operation_open (migration operation_open). The tenant: at
      // least 2N updates (the start's and the settlement's; the row's other bookkeeping may add
      // one), every one of them HOT.
      expect(operation).toEqual({ relname: 'operation', upd: N, hot: N });
      expect(tenant!.upd).toBeGreaterThanOrEqual(2 * N);
      expect(tenant).toEqual({ relname: 'tenant', upd: tenant!.upd, hot: tenant!.upd });
    } finally {
      await trx.rollback();
    }
  });
});

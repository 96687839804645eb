import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { errorBody } from '@campaign/schema';
import { createLogger, type Principal } from '@campaign/platform';
import { Reconciler } from '@campaign/lens';
import { lensServicesAtRest, restTenant } from '../support/lens-services.js';
import { useServiceDatabase } from '../support/service-database.js';

/**
 * Issue 27 (billed call, third pass): the lease sweep's and the reconciler's work list is
 * `operation_open` (migration operation_open), one row per RUNNING or RECONCILIATION_REQUIRED
 * operation, written by the start and moved by the operation's guard on every status change, so
 * the operation's settlement changes no indexed column. Every move an operation makes (start,
 * sweep, resolution, settlement, and a status written by hand) keeps the list equal to the open
 * operations, and the sweep, the queue and the backlog read it.
 */
const orm = useServiceDatabase('lens');
// Nothing executes (no inline execution, a sync budget of 0): each start stays RUNNING.
const services = lensServicesAtRest('lens-operation-open-test');
const ADMIN: Principal = { subject: 'ops', role: 'SUPER_ADMIN', agencyId: null, partnerId: null };

/** The work list and what it must equal: the open operations, each with its state. */
async function workList() {
  const em = orm().em.fork();
  const listed = await em.execute<{ id: string; reconcile: boolean }[]>(
    `select operation_id as id, reconcile from operation_open order by operation_id`,
  );
  const open = await em.execute<{ id: string; reconcile: boolean }[]>(
    `select id, status = 'RECONCILIATION_REQUIRED' as reconcile from operation
       where status in ('RUNNING', 'RECONCILIATION_REQUIRED') order by id`,
  );
  const [{ n }] = await em.execute<{ n: number }[]>(
    `select count(*)::int as n from operation_open where reconcile`,
  );
  return { listed, open, backlog: n };
}

describe('operation_open: the work list of the lease sweep and the reconciler', () => {
  it('follows every status move; the sweep, the queue and the backlog read it', async () => {
    const { apiKey } = await restTenant(services, orm().em.fork(), 'open', {
      rateLimitPerMinute: 100,
    });
    const em = orm().em.fork();
    const caller = () => services.tenants.authenticateCaller(em, `Bearer ${apiKey}`);
    const start = async () =>
      (
        await services.operations.run(orm().em.fork(), caller, 'accounts.profile', randomUUID(), {
          accountRef: { handle: 'minji.daily' },
        })
      ).operation.id;
    const [a, b, c] = [await start(), await start(), await start()];
    let list = await workList();
    expect(list.listed).toEqual(list.open);
    expect(list.listed).toHaveLength(3);
    expect(list.backlog).toBe(0);

    // a's lease runs out: the sweep moves it (and only it) to RECONCILIATION_REQUIRED.
    await em.execute(
      `update operation set lease_expires_at = now() - interval '1 second' where id = ?`,
      [a],
    );
    const reconciler = new Reconciler(() => orm().em.fork(), createLogger('t', 'silent'));
    expect(await reconciler.sweep()).toBe(1);
    list = await workList();
    expect(list.listed).toEqual(list.open);
    expect(list.listed.find((row) => row.id === a)?.reconcile).toBe(true);
    expect(list.backlog).toBe(1);
    // An operator moves b by hand: the queue pages both, oldest first, one per page.
    await em.execute(`update operation set status = 'RECONCILIATION_REQUIRED' where id = ?`, [b]);
    expect((await workList()).backlog).toBe(2);
    const first = await services.queries.requiringReconciliation(orm().em.fork(), { first: 1 });
    const next = await services.queries.requiringReconciliation(orm().em.fork(), {
      first: 1,
      after: first.nextCursor,
    });
    expect([...first.items, ...next.items].map((op) => op.id)).toEqual([a, b]);
    expect(next.nextCursor).toBeNull();

    // Resolved by an administrator: both leave the list.
    await services.reconciliation.resolve(orm().em.fork(), a, 'FAIL', ADMIN);
    await services.reconciliation.resolve(orm().em.fork(), b, 'FAIL', ADMIN);
    list = await workList();
    expect(list.listed).toEqual(list.open);
    expect(list.listed.map((row) => row.id)).toEqual([c]);
    expect(list.backlog).toBe(0);
    expect((await services.queries.requiringReconciliation(orm().em.fork(), {})).items).toEqual([]);

    // A status written by hand (an operator's fix) moves the list too, and so does its end.
    await em.execute(`update operation set status = 'RECONCILIATION_REQUIRED' where id = ?`, [c]);
    expect((await workList()).listed).toEqual([{ id: c, reconcile: true }]);
    await services.execution.fail(orm().em.fork(), c, errorBody('EXECUTION_FAILED', 'gave up'));
    expect(await workList()).toEqual({ listed: [], open: [], backlog: 0 });
  });
});

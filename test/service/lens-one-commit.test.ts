import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { describe, expect, it } from 'vitest';
import type { SocialUpstream } from '@campaign/lens';
import { lensServicesFor, minjiProfile, restTenant } from '../support/lens-services.js';
import { useServiceDatabase } from '../support/service-database.js';
import { eventually } from '../support/wait.js';

/**
 * Issue 27 (billed call): one durable commit per inline billed call. The start of an attempt
 * this process runs inline commits without a WAL flush; its answer follows the settlement's
 * synchronous commit, or an explicit flush when it shows the operation RUNNING (202, a replay, a
 * status read, a list). docs/decisions.md, "Issue 27 (billed call)".
 */
const orm = useServiceDatabase('lens');
const REF = { accountRef: { handle: 'minji.daily' } };
const FLUSH = 'lens_flush_wal';

/** An upstream that answers when the test opens its gate (a RUNNING operation on demand). */
function gatedUpstream() {
  let open: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => (open = resolve));
  const upstream = {
    async profile(ref: { handle?: string }) {
      await gate;
      return minjiProfile(ref);
    },
  } as unknown as SocialUpstream;
  return { upstream, open: () => open() };
}

interface PgConnection {
  query(config: { name: string }): Promise<unknown>;
}

/**
 * The real EntityManager, noting the name of each prepared statement sent through it (what
 * reaches PostgreSQL is unchanged): the order of the start, the settlement and the flush is the
 * rule under test.
 */
function noting(em: EntityManager, names: string[]): EntityManager {
  const client = em.getKnex().client as {
    acquireConnection(): Promise<PgConnection>;
    releaseConnection(connection: PgConnection): Promise<unknown>;
  };
  const noted = {
    acquireConnection: async () => {
      const connection = await client.acquireConnection();
      return {
        query: (config: { name: string }) => {
          names.push(config.name);
          return connection.query(config);
        },
        connection,
      };
    },
    releaseConnection: (wrapped: { connection: PgConnection }) =>
      client.releaseConnection(wrapped.connection),
  };
  const knex = { client: noted };
  return new Proxy(em, {
    get: (target, property) =>
      property === 'getKnex' ? () => knex : (Reflect.get(target, property) as unknown),
  });
}

async function tenantWith(services: ReturnType<typeof lensServicesFor>) {
  const created = await restTenant(services, orm().em.fork(), 'one-commit', { credits: 10 });
  const [key] = await orm()
    .em.fork()
    .execute<{ id: string }[]>(`select id from api_key where tenant_id = ?`, [created.tenantId]);
  return { ...created, credentialId: key!.id };
}

function runner(services: ReturnType<typeof lensServicesFor>, apiKey: string) {
  return (db: EntityManager, key: string) => {
    const em = orm().em.fork();
    return services.operations.run(
      db,
      () => services.tenants.authenticateCaller(em, `Bearer ${apiKey}`),
      'accounts.profile',
      key,
      REF,
    );
  };
}

/** `synchronous_commit` at the end of a start's transaction (rolled back), from `on`. */
async function commitModeOfStart(tenantId: string, credentialId: string, owner: string | null) {
  const knex = orm().em.getKnex();
  const trx = await knex.transaction();
  try {
    await trx.raw(`set local synchronous_commit = on`);
    await trx.raw(
      `select * from lens_start_operation(?, ?, ?, 'accounts.profile', '{}'::jsonb, 'h', 1, 1, 0,
         30000, ?, null, ?, true)`,
      [randomUUID(), tenantId, randomUUID(), owner, credentialId],
    );
    const { rows } = await trx.raw<{ rows: { mode: string }[] }>(
      `select current_setting('synchronous_commit') as mode`,
    );
    return rows[0]!.mode;
  } finally {
    await trx.rollback();
  }
}

describe('one durable commit per inline billed call', () => {
  it('an inline start commits without a flush; a start left to the reconciler flushes', async () => {
    const services = lensServicesFor('one-commit-test', gatedUpstream().upstream);
    const { tenantId, credentialId } = await tenantWith(services);
    expect(await commitModeOfStart(tenantId, credentialId, 'host:1:inline')).toBe('off');
    expect(await commitModeOfStart(tenantId, credentialId, null)).toBe('on');
  });

  it('a settled answer follows the settlement, with no flush of its own', async () => {
    const { upstream, open } = gatedUpstream();
    open();
    const services = lensServicesFor('one-commit-test', upstream);
    const { apiKey } = await tenantWith(services);
    const names: string[] = [];
    const { operation } = await runner(services, apiKey)(
      noting(orm().em.fork(), names),
      randomUUID(),
    );
    expect(operation.status).toBe('SUCCEEDED');
    // The rate-limit count is the start's own (migration tenant_rate_window): no statement
    // before it, and the settlement next.
    expect(names.slice(0, 2)).toEqual(['lens_start_operation', 'lens_settle_operation']);
    expect(names).not.toContain(FLUSH);
  });

  it('a RUNNING answer (202), its replay, its status and its list wait for a flush', async () => {
    const { upstream, open } = gatedUpstream();
    const services = lensServicesFor('one-commit-test', upstream, { LENS_SYNC_BUDGET_MS: 50 });
    const { apiKey, tenantId } = await tenantWith(services);
    const run = runner(services, apiKey);
    const key = randomUUID();
    const answers: string[][] = [];
    let operationId = '';
    async function noted<T>(call: (db: EntityManager) => Promise<T>): Promise<T> {
      const names: string[] = [];
      const answer = await call(noting(orm().em.fork(), names));
      answers.push([...names]);
      return answer;
    }
    try {
      const first = await noted((db) => run(db, key));
      expect(first.operation.status).toBe('RUNNING');
      operationId = first.operation.id;
      const replay = await noted((db) => run(db, key));
      expect(replay).toMatchObject({ replayed: true, operation: { status: 'RUNNING' } });
      const status = await noted((db) =>
        services.operations.findForTenant(db, tenantId, first.operation.id),
      );
      expect(status.status).toBe('RUNNING');
      const page = await noted((db) => services.queries.forTenant(db, tenantId, {}));
      expect(page.items.map((o) => o.status)).toEqual(['RUNNING']);
      // Each answer's last statement was the flush (the 202's after its start).
      for (const names of answers) expect(names.at(-1)).toBe(FLUSH);
      expect(answers[0]!.indexOf('lens_start_operation')).toBeLessThan(answers[0]!.indexOf(FLUSH));
    } finally {
      open();
    }
    // The attempt goes on after the 202 and settles once the upstream answers.
    await eventually(
      () => services.operations.findForTenant(orm().em, tenantId, operationId),
      (operation) => operation.status === 'SUCCEEDED',
      'the inline attempt settled after the 202',
      10_000,
    );
  });
});

import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createLogger } from '@campaign/platform';
import { PlatformError } from '@campaign/schema';
import { TenantService } from '@campaign/lens';
import { lensServicesFor, minjiProfile, restTenant } from '../support/lens-services.js';
import type { SocialUpstream } from '@campaign/lens';
import { useServiceDatabase } from '../support/service-database.js';
import { eventually } from '../support/wait.js';

/**
 * The billed call of issue 14 against real PostgreSQL: the start statement, inline execution
 * within the sync budget, the settlement statement, observations after it, and the API key
 * cache with its revocation notifications. The social upstream is the only stand-in.
 */
const orm = useServiceDatabase('lens');
let upstreamCalls = 0;
const upstream = {
  async profile(ref: { handle?: string; accountId?: string }) {
    upstreamCalls += 1;
    // Long enough for concurrent starts with one key to meet while the first is RUNNING.
    await new Promise((resolve) => setTimeout(resolve, 50));
    return minjiProfile(ref);
  },
} as unknown as SocialUpstream;
const logger = createLogger('lens-billed-path-test', 'silent');
const services = lensServicesFor('lens-billed-path-test', upstream);
const REF = { accountRef: { handle: 'minji.daily' } };

async function tenant(credits = 10) {
  return restTenant(services, orm().em.fork(), 'billed', { credits });
}

function run(apiKey: string, key: string) {
  const em = orm().em.fork();
  return services.operations.run(
    em,
    () => services.tenants.authenticateCaller(em, `Bearer ${apiKey}`),
    'accounts.profile',
    key,
    REF,
  );
}

async function books(tenantId: string) {
  const [row] = await orm()
    .em.fork()
    .execute<Record<string, string>[]>(
      `select (select credit_balance from tenant where id = ?) as balance,
         (select sum(amount) from credit_ledger_entry where tenant_id = ?) as ledger_sum,
         (select string_agg(kind || ' ' || amount, ', ' order by id)
            from credit_ledger_entry where tenant_id = ?) as ledger,
         (select count(*) from operation where tenant_id = ?) as operations,
         (select count(*) from operation where tenant_id = ?
            and credits_reserved = credits_charged + credits_refunded) as balanced,
         (select count(*) from graphile_worker.jobs) as jobs,
         (select summary->>'followerCount' from account_observation where account_id = '1789')
           as followers`,
      [tenantId, tenantId, tenantId, tenantId, tenantId],
    );
  return row!;
}

describe('the billed call: start, inline execution, settlement', () => {
  it('settles inline within the budget: charged, ledger equal to the balance, observed, no job', async () => {
    const { apiKey, tenantId } = await tenant();
    const { operation, replayed } = await run(apiKey, randomUUID());
    expect(replayed).toBe(false);
    expect(operation).toMatchObject({
      status: 'SUCCEEDED',
      creditsReserved: '1',
      creditsCharged: '1',
      creditsRefunded: '0',
      result: { accountId: '1789', handle: 'minji.daily' },
    });
    expect(await books(tenantId)).toEqual({
      balance: '9',
      ledger_sum: '9',
      ledger: 'TOP_UP 10, RESERVE -1, RELEASE 1, CHARGE -1',
      operations: '1',
      balanced: '1',
      jobs: '0',
      followers: '120',
    });
  });

  it('one key sent eight times at once executes once, and every answer is that execution', async () => {
    const { apiKey, tenantId } = await tenant();
    const key = randomUUID();
    const before = upstreamCalls;
    const outcomes = await Promise.all(Array.from({ length: 8 }, () => run(apiKey, key)));
    expect(upstreamCalls - before).toBe(1);
    expect(new Set(outcomes.map((o) => o.operation.id)).size).toBe(1);
    expect(outcomes.map((o) => o.operation.status)).toEqual(Array(8).fill('SUCCEEDED'));
    expect(outcomes.filter((o) => !o.replayed)).toHaveLength(1);
    expect(await books(tenantId)).toMatchObject({ balance: '9', ledger_sum: '9', operations: '1' });
  });

  it('402 when the balance cannot cover the reservation: nothing written', async () => {
    const { apiKey, tenantId } = await tenant(0);
    const refused = await run(apiKey, randomUUID()).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(PlatformError);
    expect((refused as PlatformError).code).toBe('INSUFFICIENT_CREDITS');
    expect(await books(tenantId)).toMatchObject({ balance: '0', ledger: null, operations: '0' });
  });
});

describe('the API key cache', () => {
  it('a key revoked by another process is refused on the next request', async () => {
    const revocations = services.tenants.listenForRevocations(
      orm().config.get('clientUrl')!,
      logger,
    );
    try {
      await revocations.listening;
      const { apiKey } = await tenant();
      // Now cached for 5 s (KEY_CACHE_TTL_MS).
      await expect(run(apiKey, randomUUID())).resolves.toMatchObject({ replayed: false });
      // Another TenantService, as the CLI's process has: it cannot touch this one's cache.
      expect(await new TenantService().revokeKey(orm().em.fork(), apiKey)).toBe(true);
      const refused = await waitForRefusal(() => run(apiKey, randomUUID()));
      expect(refused.code).toBe('UNAUTHENTICATED');
    } finally {
      await revocations.stop();
    }
  });
});

/**
 * The notification travels on its own connection, so the test gives its delivery up to 1 s: far
 * less than the cache's 5 s, so only the notification can have ended the cached key.
 */
async function waitForRefusal(call: () => Promise<unknown>): Promise<PlatformError> {
  const outcome = await eventually(
    () => call().catch((e: unknown) => e),
    (seen) => seen instanceof PlatformError,
    'a revoked key refused',
    1_000,
    20,
  );
  return outcome as PlatformError;
}

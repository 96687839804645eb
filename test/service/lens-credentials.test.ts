import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { PlatformError } from '@campaign/schema';
import type { SocialUpstream } from '@campaign/lens';
import { lensServicesFor, restTenant } from '../support/lens-services.js';
import { useServiceDatabase } from '../support/service-database.js';

/**
 * Credentials of one tenant (issue 24) against real PostgreSQL: rotation's grace period ends
 * (a short one here), the credential that started an operation is on it, and its last-used
 * time moves with the start statement, at most once a minute.
 */
const orm = useServiceDatabase('lens');
const upstream = {
  async profile(ref: { handle?: string }) {
    return { accountId: '1', handle: ref.handle ?? null, displayName: null, biography: null };
  },
} as unknown as SocialUpstream;
const services = lensServicesFor('lens-credentials-test', upstream, {
  LENS_KEY_ROTATION_GRACE_SECONDS: 1,
});

async function account() {
  return restTenant(services, orm().em.fork(), 'credentials', { credits: 10 });
}

const authenticate = (secret: string) =>
  services.tenants.authenticateCaller(orm().em.fork(), `Bearer ${secret}`);

function call(secret: string) {
  const em = orm().em.fork();
  return services.operations.run(
    em,
    () => services.tenants.authenticateCaller(em, `Bearer ${secret}`),
    'accounts.profile',
    randomUUID(),
    { accountRef: { handle: 'minji.daily' } },
  );
}

describe('credentials of one tenant', () => {
  it('a rotated secret works for the grace period, then is refused; its successor goes on', async () => {
    const { apiKey, tenantId } = await account();
    const [first] = await services.credentials.list(orm().em.fork(), tenantId);
    const rotated = await services.credentials.rotate(orm().em.fork(), tenantId, first!.id);
    expect(rotated.previous.expires_at).not.toBeNull();
    expect((await authenticate(apiKey)).apiKeyId).toBe(first!.id);
    // Wait for the fact (the end of the 1 s grace), not for a fixed time.
    const until = Date.now() + 10_000;
    let refused: unknown;
    while (!refused && Date.now() < until) {
      refused = await authenticate(apiKey).then(
        () => undefined,
        (error: unknown) => error,
      );
    }
    expect(refused).toBeInstanceOf(PlatformError);
    expect((refused as PlatformError).code).toBe('UNAUTHENTICATED');
    expect((await authenticate(rotated.secret)).apiKeyId).toBe(rotated.credential.id);
  });

  it('each operation names its credential; last used moves with the start, once a minute', async () => {
    const { apiKey, tenantId } = await account();
    const second = await services.credentials.create(orm().em.fork(), tenantId, 'rest', 'two');
    const [first] = await services.credentials.list(orm().em.fork(), tenantId);
    expect(first!.last_used_at).toBeNull();
    const xmin = async () => {
      const [row] = await orm()
        .em.fork()
        .execute<{ xmin: string }[]>('select xmin::text as xmin from api_key where id = ?', [
          first!.id,
        ]);
      return row!.xmin;
    };
    await call(apiKey);
    const written = await xmin();
    await call(apiKey);
    // Within the minute the second call leaves the key's row as it was (xmin: the transaction
    // that wrote it last).
    expect(await xmin()).toBe(written);
    await call(second.secret);
    const rows = await orm()
      .em.fork()
      .execute<{ credential_id: string; n: string }[]>(
        `select credential_id, count(*) as n from operation where tenant_id = ?
         group by 1 order by 2 desc`,
        [tenantId],
      );
    expect(rows.map((r) => [r.credential_id, Number(r.n)])).toEqual([
      [first!.id, 2],
      [second.credential.id, 1],
    ]);
    const listed = await services.credentials.list(orm().em.fork(), tenantId);
    expect(listed.map((c) => c.last_used_at !== null)).toEqual([true, true]);
  });
});

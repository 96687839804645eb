import type { EntityManager } from '@mikro-orm/postgresql';
import type { PreparedStatement } from '@campaign/platform';
import { REVOCATION_CHANNEL } from './api-key-cache.js';

/** The api_key table's statements. */

/**
 * A key (not revoked, not past its rotation grace) with its tenant: one indexed look-up, no ORM
 * hydration.
 */
export const KEY_WITH_TENANT: PreparedStatement = {
  name: 'lens_api_key_with_tenant',
  text: `select k.id as api_key_id, k.kind, k.expires_at, k.operations, k.credits_cap, t.id, t.name,
           t.plan, t.permissions, t.rate_limit_per_minute
         from api_key k join tenant t on t.id = k.tenant_id
         where k.key_hash = $1 and k.revoked_at is null
           and (k.expires_at is null or k.expires_at > now())`,
};

/**
 * Revokes the key with this hash unless it is revoked already; every process listening on
 * REVOCATION_CHANNEL hears it when the transaction commits. False when nothing was revoked.
 */
export async function revokeKeyByHash(em: EntityManager, keyHash: string): Promise<boolean> {
  const rows = await em.execute<{ id: string }[]>(
    `update api_key set revoked_at = now() where key_hash = ? and revoked_at is null
       returning id, pg_notify(?, key_hash) is not null as notified`,
    [keyHash, REVOCATION_CHANNEL],
  );
  return rows.length > 0;
}

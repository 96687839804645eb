import type { EntityManager } from '@mikro-orm/postgresql';
import { REVOCATION_CHANNEL } from './api-key-cache.js';

/** What a console shows of a credential: never its secret nor its hash. */
export interface CredentialRow {
  id: string;
  tenant_id: string;
  kind: 'rest' | 'mcp' | 'oauth';
  name: string;
  key_prefix: string;
  created_at: Date;
  last_used_at: Date | null;
  revoked_at: Date | null;
  expires_at: Date | null;
  operations: string[] | null;
  credits_cap: string | null;
}

const COLUMNS = `id, tenant_id, kind, name, key_prefix, created_at, last_used_at, revoked_at,
  expires_at, operations, credits_cap`;

export interface NewCredential {
  id: string;
  tenantId: string;
  kind: 'rest' | 'mcp' | 'oauth';
  name: string;
  keyPrefix: string;
  keyHash: string;
  /** An OAuth connection's granted operations and credits cap (null: all, none). */
  operations?: string[] | null;
  creditsCap?: number | null;
}

/**
 * The `api_key` table's statements for the account console (the billed path's look-up of a key is
 * TenantService's prepared statement). Revocation notifies every lens process in the statement
 * that revokes (api-key-cache.ts), so it takes effect on every replica when it commits.
 */
export class CredentialRepository {
  async insert(em: EntityManager, c: NewCredential): Promise<CredentialRow> {
    const [row] = await em.execute<CredentialRow[]>(
      `insert into api_key (id, tenant_id, kind, name, key_prefix, key_hash, operations,
         credits_cap, created_at)
       values (?, ?, ?, ?, ?, ?,
         (select array_agg(name) from jsonb_array_elements_text(?::jsonb) name), ?, now())
       returning ${COLUMNS}`,
      [
        c.id,
        c.tenantId,
        c.kind,
        c.name,
        c.keyPrefix,
        c.keyHash,
        // As JSON: the query builder would spread an array into a list of values.
        c.operations ? JSON.stringify(c.operations) : null,
        c.creditsCap ?? null,
      ],
    );
    return row!;
  }

  /** A tenant's credentials, oldest first (revoked and expired ones included). */
  listForTenant(em: EntityManager, tenantId: string): Promise<CredentialRow[]> {
    return em.execute<CredentialRow[]>(
      `select ${COLUMNS} from api_key where tenant_id = ? order by created_at, id`,
      [tenantId],
    );
  }

  async find(em: EntityManager, tenantId: string, id: string): Promise<CredentialRow | undefined> {
    const [row] = await em.execute<CredentialRow[]>(
      `select ${COLUMNS} from api_key where id = ? and tenant_id = ?`,
      [id, tenantId],
    );
    return row;
  }

  /** Revokes a credential of the tenant that is not revoked yet; undefined otherwise. */
  async revoke(
    em: EntityManager,
    tenantId: string,
    id: string,
  ): Promise<CredentialRow | undefined> {
    const [row] = await em.execute<(CredentialRow & { key_hash: string })[]>(
      `update api_key set revoked_at = now() where id = ? and tenant_id = ? and revoked_at is null
       returning ${COLUMNS}, key_hash, pg_notify(?, key_hash) is not null as notified`,
      [id, tenantId, REVOCATION_CHANNEL],
    );
    return row;
  }

  /**
   * Gives a usable credential of the tenant an end `graceSeconds` from now (rotation); undefined
   * when it is revoked, already ending or gone.
   */
  async expire(
    em: EntityManager,
    tenantId: string,
    id: string,
    graceSeconds: number,
  ): Promise<CredentialRow | undefined> {
    const [row] = await em.execute<CredentialRow[]>(
      `update api_key set expires_at = now() + ? * interval '1 second'
       where id = ? and tenant_id = ? and revoked_at is null and expires_at is null
       returning ${COLUMNS}`,
      [graceSeconds, id, tenantId],
    );
    return row;
  }
}

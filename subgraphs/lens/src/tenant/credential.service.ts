import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { PlatformError } from '@campaign/schema';
import type { CredentialKind } from './api-key.entity.js';
import { generateKey, hashKey } from './api-key.js';
import { CredentialRepository, type CredentialRow } from './credential.repository.js';

/** How many characters of a secret a console shows to tell credentials apart. */
export const PREFIX_LENGTH = 12;
export const NAME_LIMIT = 100;

export const defaultCredentialName = (kind: CredentialKind) =>
  ({ rest: 'REST API key', mcp: 'MCP token', oauth: 'OAuth connection' })[kind];

export interface IssuedCredential {
  credential: CredentialRow;
  /** The secret: returned here once, stored only as its SHA-256 hash. */
  secret: string;
}

/**
 * A tenant's credentials (issue 24): REST API keys and tool-protocol (MCP) tokens that all spend
 * the tenant's credits under its plan, permissions and rate limit. Every method is scoped to one
 * tenant: another tenant's credential id is NOT_FOUND, as an unknown one.
 */
export class CredentialService {
  constructor(
    private readonly settings: {
      /** How long a rotated credential keeps working (LENS_KEY_ROTATION_GRACE_SECONDS). */
      rotationGraceSeconds: number;
      /** This process's key cache forgets a revoked key at once (the others by notification). */
      forget: (keyHash: string) => void;
    },
    private readonly repository = new CredentialRepository(),
  ) {}

  async create(
    em: EntityManager,
    tenantId: string,
    kind: CredentialKind,
    name?: string | null,
    limits: { operations?: string[] | null; creditsCap?: number | null } = {},
  ): Promise<IssuedCredential> {
    const label = (name ?? defaultCredentialName(kind)).trim();
    if (label.length < 1 || label.length > NAME_LIMIT) {
      throw new PlatformError('INVALID_REQUEST', `name: 1 to ${NAME_LIMIT} characters.`);
    }
    const secret = generateKey(kind);
    const credential = await this.repository.insert(em, {
      id: randomUUID(),
      tenantId,
      kind,
      name: label,
      keyPrefix: secret.slice(0, PREFIX_LENGTH),
      keyHash: hashKey(secret),
      ...limits,
    });
    return { credential, secret };
  }

  list(em: EntityManager, tenantId: string): Promise<CredentialRow[]> {
    return this.repository.listForTenant(em, tenantId);
  }

  /** Revokes for good, on every replica when it commits; a revoked one is answered as it is. */
  async revoke(em: EntityManager, tenantId: string, id: string): Promise<CredentialRow> {
    const revoked = UUID.test(id) ? await this.repository.revoke(em, tenantId, id) : undefined;
    if (revoked) {
      const { key_hash: keyHash, ...credential } = revoked as CredentialRow & { key_hash: string };
      this.settings.forget(keyHash);
      return credential;
    }
    return this.found(em, tenantId, id);
  }

  /**
   * A new secret for the same purpose (same kind and name): the new credential now, the old one
   * working for the grace period and then refused (it can still be revoked sooner). A revoked
   * credential, or one already rotated, is a 409.
   */
  async rotate(
    em: EntityManager,
    tenantId: string,
    id: string,
  ): Promise<IssuedCredential & { previous: CredentialRow }> {
    return em.transactional(async (tx) => {
      const previous = UUID.test(id)
        ? await this.repository.expire(tx, tenantId, id, this.settings.rotationGraceSeconds)
        : undefined;
      if (!previous) {
        const current = await this.found(tx, tenantId, id);
        throw new PlatformError(
          'CONFLICT',
          current.revoked_at
            ? 'This credential is revoked; create a new one instead.'
            : 'This credential was rotated already; rotate its successor instead.',
        );
      }
      if (previous.kind === 'oauth') {
        throw new PlatformError('CONFLICT', 'An OAuth connection is renewed by its client.');
      }
      const issued = await this.create(tx, tenantId, previous.kind, previous.name);
      return { ...issued, previous };
    });
  }

  private async found(em: EntityManager, tenantId: string, id: string): Promise<CredentialRow> {
    const found = UUID.test(id) ? await this.repository.find(em, tenantId, id) : undefined;
    if (!found) throw new PlatformError('NOT_FOUND', `No credential ${id} in this account.`);
    return found;
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

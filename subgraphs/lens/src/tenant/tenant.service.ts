import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { bearerToken, runPrepared, type Logger, type PreparedSqlStore } from '@campaign/platform';
import { PlatformError } from '@campaign/schema';
import { CreditsService } from '../credits/credits.service.js';
import { ApiKey, type CredentialKind } from './api-key.entity.js';
import { ApiKeyCache, type RevocationListener } from './api-key-cache.js';
import { KEY_WITH_TENANT, revokeKeyByHash } from './api-key.repository.js';
import { generateKey, hashKey, kindOfKey } from './api-key.js';
import { defaultCredentialName, PREFIX_LENGTH } from './credential.service.js';
import { Tenant } from './tenant.entity.js';

export interface NewTenant {
  name: string;
  plan: string;
  permissions: string[];
  rateLimitPerMinute: number;
  credits: number;
  kind: CredentialKind;
  /** The low-balance alert's contact and threshold (both or neither). */
  alertEmail?: string | null;
  alertBelow?: number | null;
}

export interface CreatedKey {
  tenantId: string;
  apiKey: string;
}

/** What a request knows of its tenant (read with the key; the balance is never cached). */
export type TenantProfile = Readonly<
  Pick<Tenant, 'id' | 'name' | 'plan' | 'rateLimitPerMinute'> & {
    permissions: readonly string[];
  }
>;

/** Who is calling the lens API: the tenant and the credential it used (on every operation). */
export interface Caller {
  /** The tenant as this credential sees it: an OAuth connection's permissions are its grant. */
  tenant: TenantProfile;
  apiKeyId: string;
  /** The most credits this credential may spend in all (an OAuth connection's cap); null: no cap. */
  creditsCap: number | null;
}

interface CachedKey extends Caller {
  kind: CredentialKind;
  /** The end of a rotated key's grace period (epoch ms), checked on every use of the cache. */
  expiresAt: number | null;
}

export class TenantService {
  private readonly keys = new ApiKeyCache<CachedKey>();

  constructor(private readonly credits = new CreditsService()) {}

  /**
   * Starts trusting the key cache (api-key-cache.ts): from now on this process hears
   * revocations. Without it (CLI, tests), every request asks the database.
   */
  listenForRevocations(connectionString: string, logger: Logger): RevocationListener {
    return this.keys.listen(connectionString, logger);
  }

  /** Creates a tenant with one key; the key is returned here and never again. */
  async createTenantWithKey(em: EntityManager, input: NewTenant): Promise<CreatedKey> {
    const apiKey = generateKey(input.kind);
    const tenantId = randomUUID();
    await em.transactional(async (tx) => {
      const now = new Date();
      tx.create(Tenant, {
        id: tenantId,
        name: input.name,
        plan: input.plan,
        permissions: input.permissions,
        rateLimitPerMinute: input.rateLimitPerMinute,
        creditBalance: '0',
        createdAt: now,
        alertEmail: input.alertEmail ?? null,
        alertBelow: input.alertBelow ?? null,
        lowBalanceArmed: false,
      });
      tx.create(ApiKey, {
        id: randomUUID(),
        tenant: tenantId,
        kind: input.kind,
        name: defaultCredentialName(input.kind),
        keyPrefix: apiKey.slice(0, PREFIX_LENGTH),
        keyHash: hashKey(apiKey),
        createdAt: now,
      });
      await tx.flush();
      if (input.credits > 0) await this.credits.topUp(tx, tenantId, input.credits);
    });
    return { tenantId, apiKey };
  }

  /**
   * Resolves a bearer credential to its tenant and key. Each interface takes its own kind
   * (DESIGN.md L7): REST and GraphQL API keys, the tool protocol (MCP) tool-protocol tokens
   * (`via: 'mcp'`, which only the MCP front can make the gateway say: platform lens-interface.ts).
   * The other kind is recognised by prefix and refused before any look-up.
   */
  async authenticateCaller(
    db: PreparedSqlStore,
    authorization: string | undefined,
    via: CredentialKind = 'rest',
  ): Promise<Caller> {
    const key = bearerToken(authorization);
    if (!key) {
      throw new PlatformError(
        'UNAUTHENTICATED',
        via === 'mcp'
          ? 'Send a tool-protocol token as "Authorization: Bearer lmcp_...".'
          : 'Send an API key as "Authorization: Bearer <API_KEY>".',
      );
    }
    const kind = kindOfKey(key);
    if ((kind === 'mcp' || kind === 'oauth') && via === 'rest') {
      throw new PlatformError(
        'TOOL_TOKEN_NOT_ALLOWED',
        'This is a tool-protocol connection token; REST and GraphQL calls need an API key.',
      );
    }
    if (kind === 'rest' && via === 'mcp') {
      throw new PlatformError(
        'API_KEY_NOT_ALLOWED',
        'This is a REST API key; the tool-protocol (MCP) interface needs a tool-protocol token ' +
          '(lmcp_..., made with `npm run cli -- lens:create-key --kind mcp`).',
      );
    }
    const found = kind ? await this.findKey(db, hashKey(key)) : undefined;
    // An OAuth connection's key is a tool-protocol credential (the adapter sends it for /mcp).
    const channel = found?.kind === 'oauth' ? 'mcp' : found?.kind;
    if (!found || channel !== via) {
      throw new PlatformError(
        'UNAUTHENTICATED',
        via === 'mcp'
          ? 'The tool-protocol token is unknown or revoked.'
          : 'The API key is unknown or revoked.',
      );
    }
    return found;
  }

  /** This process forgets a key at once (a console's revocation; other processes by notification). */
  forgetKey(keyHash: string): void {
    this.keys.forget(keyHash);
  }

  private async findKey(db: PreparedSqlStore, keyHash: string): Promise<CachedKey | undefined> {
    const cached = this.keys.get(keyHash);
    if (cached && (cached.expiresAt === null || cached.expiresAt > Date.now())) return cached;
    const mark = this.keys.mark();
    const [row] = await runPrepared<{
      api_key_id: string;
      kind: CredentialKind;
      expires_at: Date | string | null;
      operations: string[] | null;
      credits_cap: string | null;
      id: string;
      name: string;
      plan: string;
      permissions: string[];
      rate_limit_per_minute: number;
    }>(db, KEY_WITH_TENANT, [keyHash]);
    if (!row) return undefined;
    // Shared by every request that uses the key until it leaves the cache: frozen.
    const found: CachedKey = Object.freeze({
      kind: row.kind,
      apiKeyId: row.api_key_id,
      expiresAt: row.expires_at === null ? null : new Date(row.expires_at).getTime(),
      creditsCap: row.credits_cap === null ? null : Number(row.credits_cap),
      tenant: Object.freeze({
        id: row.id,
        name: row.name,
        plan: row.plan,
        permissions: Object.freeze(grantedPermissions(row.permissions, row.operations)),
        rateLimitPerMinute: row.rate_limit_per_minute,
      }),
    });
    this.keys.set(keyHash, found, mark);
    return found;
  }

  /**
   * Revokes a key for good: false when no such key exists or it was already revoked. Every lens
   * process that caches keys is told when this commits (REVOCATION_CHANNEL); this one forgets
   * the key at once.
   */
  async revokeKey(em: EntityManager, apiKey: string): Promise<boolean> {
    const keyHash = hashKey(apiKey);
    const revoked = await revokeKeyByHash(em, keyHash);
    this.keys.forget(keyHash);
    return revoked;
  }

  async findByKey(em: EntityManager, apiKey: string): Promise<Tenant | null> {
    const found = await em.findOne(ApiKey, { keyHash: hashKey(apiKey) }, { populate: ['tenant'] });
    return found?.tenant ?? null;
  }
}

/**
 * The tenant's permissions as one credential may use them: a credential limited to some
 * operations (an OAuth connection's grant) gets those the tenant may also call, so the tenant's
 * own permissions still apply on top (issue 25).
 */
export function grantedPermissions(
  tenant: readonly string[],
  granted: readonly string[] | null,
): string[] {
  if (granted === null) return [...tenant];
  return tenant.includes('*') ? [...granted] : granted.filter((name) => tenant.includes(name));
}

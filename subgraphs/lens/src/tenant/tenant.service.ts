import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { bearerToken } from '@campaign/platform';
import { PlatformError } from '@campaign/schema';
import { CreditsService } from '../credits/credits.service.js';
import { ApiKey, type CredentialKind } from './api-key.entity.js';
import { generateKey, hashKey, kindOfKey } from './api-key.js';
import { Tenant } from './tenant.entity.js';

export interface NewTenant {
  name: string;
  plan: string;
  permissions: string[];
  rateLimitPerMinute: number;
  credits: number;
  kind: CredentialKind;
}

export interface CreatedKey {
  tenantId: string;
  apiKey: string;
}

/** Who is calling the lens API: the tenant and the API key it used (rate limits are per key). */
export interface Caller {
  tenant: Tenant;
  apiKeyId: string;
}

export class TenantService {
  constructor(private readonly credits = new CreditsService()) {}

  /** Creates a tenant with one key; the key is returned here and never again. */
  async createTenantWithKey(em: EntityManager, input: NewTenant): Promise<CreatedKey> {
    const apiKey = generateKey(input.kind);
    const tenantId = randomUUID();
    await em.transactional(async (tx) => {
      tx.create(Tenant, {
        id: tenantId,
        name: input.name,
        plan: input.plan,
        permissions: input.permissions,
        rateLimitPerMinute: input.rateLimitPerMinute,
        creditBalance: '0',
        createdAt: new Date(),
      });
      tx.create(ApiKey, {
        id: randomUUID(),
        tenant: tenantId,
        kind: input.kind,
        keyPrefix: apiKey.slice(0, 12),
        keyHash: hashKey(apiKey),
        createdAt: new Date(),
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
    em: EntityManager,
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
    if (kind === 'mcp' && via === 'rest') {
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
    const found = kind
      ? await em.findOne(
          ApiKey,
          { keyHash: hashKey(key), revokedAt: null },
          { populate: ['tenant'] },
        )
      : null;
    if (!found || found.kind !== via) {
      throw new PlatformError(
        'UNAUTHENTICATED',
        via === 'mcp'
          ? 'The tool-protocol token is unknown or revoked.'
          : 'The API key is unknown or revoked.',
      );
    }
    return { tenant: found.tenant, apiKeyId: found.id };
  }

  /** Revokes a key for good: false when no such key exists or it was already revoked. */
  async revokeKey(em: EntityManager, apiKey: string): Promise<boolean> {
    const rows = await em.execute<{ id: string }[]>(
      `update api_key set revoked_at = now() where key_hash = ? and revoked_at is null returning id`,
      [hashKey(apiKey)],
    );
    return rows.length > 0;
  }

  async findByKey(em: EntityManager, apiKey: string): Promise<Tenant | null> {
    const found = await em.findOne(ApiKey, { keyHash: hashKey(apiKey) }, { populate: ['tenant'] });
    return found?.tenant ?? null;
  }
}

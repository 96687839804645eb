import { Arg, Authorized, Ctx, ID, Int, Mutation, Query, Resolver } from 'type-graphql';
import { lensOperations, lensUsage, PlatformError } from '@campaign/schema';
import type { LensContext } from '../context.js';
import type { CredentialKind } from '../tenant/api-key.entity.js';
import { NAME_LIMIT } from '../tenant/credential.service.js';
import { accountTenant, AccountTenant, TenantIdArg } from './account-access.js';
import {
  ApiCredential,
  IssuedApiCredential,
  LensUsage,
  LowBalanceAlert,
} from './account-console.type.js';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const REASON_LIMIT = 500;

/**
 * The account console of a lens tenant (issue 24): thin resolvers over the credential, usage and
 * credit services; who may see which tenant is `accountTenant`, in one place.
 */
@Resolver()
export class AccountConsoleResolver {
  @Query(() => LensUsage, {
    description:
      `${lensUsage.summary} Any credential of the account (API key; over MCP its token), a ` +
      'TENANT token, or SUPER_ADMIN with tenantId.',
  })
  async lensUsage(
    @Arg('from', () => String) from: string,
    @Arg('to', () => String) to: string,
    @Ctx() context: LensContext,
    @AccountTenant('read') tenant: string,
  ): Promise<LensUsage> {
    return context.services.usage.usage(context.em, tenant, { from, to });
  }

  @Query(() => [ApiCredential], {
    description: "The account's credentials, oldest first (revoked ones too); never a secret.",
  })
  async apiCredentials(
    @Ctx() context: LensContext,
    @AccountTenant('manage') tenant: string,
  ): Promise<ApiCredential[]> {
    const rows = await context.services.credentials.list(context.em, tenant);
    return rows.map((row) => ApiCredential.from(row));
  }

  @Mutation(() => IssuedApiCredential, {
    description:
      'A new credential of the account (kind rest: an API key; mcp: a tool-protocol token), ' +
      'spending its credits; the secret is in this answer only.',
  })
  async createApiCredential(
    @Arg('kind', () => String, { description: 'rest or mcp.' }) kind: string,
    @Ctx() context: LensContext,
    @Arg('name', () => String, { nullable: true }) name?: string,
    @TenantIdArg() tenantId?: string,
  ): Promise<IssuedApiCredential> {
    if (kind !== 'rest' && kind !== 'mcp') {
      throw new PlatformError('INVALID_REQUEST', 'kind: rest or mcp.');
    }
    const tenant = await accountTenant(context, tenantId, 'manage');
    const issued = await context.services.credentials.create(
      context.em,
      tenant,
      kind satisfies CredentialKind,
      name,
    );
    return IssuedApiCredential.from(issued);
  }

  @Mutation(() => IssuedApiCredential, {
    description:
      "An OAuth connection (kind oauth) of the account, approved on the REST adapter's consent " +
      'page: limited to the granted operations (still within the plan and permissions) and, ' +
      'when creditsCap is given, to that many credits in all. With a REST API key of the ' +
      'account or a TENANT token; the secret stays with the REST adapter.',
  })
  async connectOAuthClient(
    @Arg('clientName', () => String) clientName: string,
    @Arg('operations', () => [String]) operations: string[],
    @Ctx() context: LensContext,
    @Arg('creditsCap', () => Int, { nullable: true }) creditsCap?: number | null,
    @TenantIdArg() tenantId?: string,
  ): Promise<IssuedApiCredential> {
    const unknown = operations.filter((name) => !(name in lensOperations));
    if (operations.length === 0 || unknown.length > 0) {
      throw new PlatformError(
        'INVALID_REQUEST',
        `operations: one or more lens operations${unknown.length ? `; unknown: ${unknown.join(', ')}` : ''}.`,
      );
    }
    if (creditsCap !== null && creditsCap !== undefined && creditsCap < 1) {
      throw new PlatformError('INVALID_REQUEST', 'creditsCap: at least 1, or null for no cap.');
    }
    const tenant = await accountTenant(context, tenantId, 'connect');
    const issued = await context.services.credentials.create(
      context.em,
      tenant,
      'oauth',
      clientName.slice(0, NAME_LIMIT),
      { operations: [...new Set(operations)], creditsCap: creditsCap ?? null },
    );
    return IssuedApiCredential.from(issued);
  }

  @Mutation(() => ApiCredential, {
    description:
      'Revokes a credential for good, on every replica as soon as this answers; a revoked one ' +
      'is answered as it is.',
  })
  async revokeApiCredential(
    @Arg('id', () => ID) id: string,
    @Ctx() context: LensContext,
    @AccountTenant('manage') tenant: string,
  ): Promise<ApiCredential> {
    return ApiCredential.from(await context.services.credentials.revoke(context.em, tenant, id));
  }

  @Mutation(() => IssuedApiCredential, {
    description:
      'A new secret for a credential (a new credential of the same kind and name); the old ' +
      'one keeps working until its expiresAt (the grace period), then is refused.',
  })
  async rotateApiCredential(
    @Arg('id', () => ID) id: string,
    @Ctx() context: LensContext,
    @AccountTenant('manage') tenant: string,
  ): Promise<IssuedApiCredential> {
    const rotated = await context.services.credentials.rotate(context.em, tenant, id);
    return IssuedApiCredential.from(rotated);
  }

  @Query(() => LowBalanceAlert, { description: "The account's low-balance e-mail settings." })
  async lowBalanceAlert(
    @Ctx() context: LensContext,
    @AccountTenant('read') tenant: string,
  ): Promise<LowBalanceAlert> {
    return LowBalanceAlert.from((await context.services.accounts.find(context.em, tenant))!);
  }

  @Mutation(() => LowBalanceAlert, {
    description:
      'Sets the low-balance e-mail (email and below together; both null turns it off). One ' +
      'e-mail per fall below the threshold; a top-up to the threshold or above re-arms it.',
  })
  async setLowBalanceAlert(
    @Ctx() context: LensContext,
    @Arg('email', () => String, { nullable: true }) email?: string,
    @Arg('below', () => Int, { nullable: true }) below?: number,
    @TenantIdArg() tenantId?: string,
  ): Promise<LowBalanceAlert> {
    if ((email == null) !== (below == null)) {
      throw new PlatformError('INVALID_REQUEST', 'email and below: both, or neither to turn off.');
    }
    if (email != null && (email.length > 254 || !EMAIL.test(email))) {
      throw new PlatformError('INVALID_REQUEST', 'email: not an e-mail address.');
    }
    if (below != null && below < 1) {
      throw new PlatformError('INVALID_REQUEST', 'below: a whole number of credits, 1 or more.');
    }
    const tenant = await accountTenant(context, tenantId, 'manage');
    const row = await context.services.accounts.setAlert(
      context.em,
      tenant,
      email ?? null,
      below ?? null,
    );
    return LowBalanceAlert.from(row!);
  }

  @Authorized('SUPER_ADMIN')
  @Mutation(() => Int, {
    description:
      'Admin: adds credits to a tenant, with a reason (a TOP_UP ledger entry); the balance.',
  })
  async topUpCredits(
    @Arg('tenantId', () => ID) tenantId: string,
    @Arg('amount', () => Int) amount: number,
    @Arg('reason', () => String) reason: string,
    @Ctx() context: LensContext,
  ): Promise<number> {
    if (amount < 1) throw new PlatformError('INVALID_REQUEST', 'amount: 1 or more credits.');
    const why = reason.trim();
    if (!why || why.length > REASON_LIMIT) {
      throw new PlatformError('INVALID_REQUEST', `reason: 1 to ${REASON_LIMIT} characters.`);
    }
    const tenant = await accountTenant(context, tenantId, 'manage');
    const balance = await context.em.transactional((tx) =>
      context.services.credits.topUp(tx, tenant, amount, why),
    );
    return Number(balance);
  }
}

import { Arg, createParameterDecorator, ID } from 'type-graphql';
import { bearerToken } from '@campaign/platform';
import { PlatformError } from '@campaign/schema';
import type { LensContext } from '../context.js';
import { kindOfKey } from '../tenant/api-key.js';

const TENANT_ID_OPTIONS = {
  nullable: true,
  description: 'The tenant: required with a SUPER_ADMIN token, implied by any other credential.',
};

/**
 * The optional `tenantId` argument of the console's queries and mutations, read by
 * {@link accountTenant}.
 */
export const TenantIdArg = () => Arg('tenantId', () => ID, TENANT_ID_OPTIONS);

/**
 * The tenant a console call acts for, as a parameter: the same optional `tenantId` argument,
 * resolved by {@link accountTenant} with `access` before the call runs. For calls that check
 * nothing before it (a call that refuses bad input first reads TenantIdArg itself).
 */
export const AccountTenant = (access: ConsoleAccess) =>
  createParameterDecorator<LensContext>(
    ({ context, args }) =>
      accountTenant(context, args['tenantId'] as string | null | undefined, access),
    { arg: { name: 'tenantId', typeFunc: () => ID, options: TENANT_ID_OPTIONS } },
  );

/**
 * `read`: balance, ledger, operations, usage. `manage`: credentials and the alert. `connect`: an
 * OAuth connection approved on the consent page (issue 25), where the account holder signs in
 * with a REST API key or a TENANT token.
 */
export type ConsoleAccess = 'read' | 'manage' | 'connect';

/**
 * The one scoping rule of the account console (issue 24): which tenant a call is about.
 *
 * - An API key (or, over MCP, a tool token) reads its own tenant; it manages nothing, so a
 *   leaked key cannot mint others, except an OAuth connection (`connect`), which a person
 *   approves on the consent page with the account's REST API key: a connection can do no more
 *   than the key itself, and the console can revoke it.
 * - A TENANT token (`auth:token --role TENANT --tenant <id>`) reads and manages its tenant and no
 *   other: naming another `tenantId` is 403.
 * - A SUPER_ADMIN token names the tenant (`tenantId`, required); an unknown one is 404.
 * - Any other token is 403.
 */
export async function accountTenant(
  context: LensContext,
  tenantId: string | null | undefined,
  access: ConsoleAccess,
): Promise<string> {
  const token = bearerToken(context.authorization);
  // No credential at all: the API key's 401, as these queries answered before the console.
  if (!token || kindOfKey(token)) {
    if (access === 'manage') {
      throw new PlatformError(
        'PERMISSION_DENIED',
        'Credentials and alerts are managed with a platform token of the account ' +
          '(npm run cli -- auth:token --role TENANT --tenant <id>), not with an API key.',
      );
    }
    const tenant = await context.tenant();
    if (tenantId && tenantId !== tenant.id) throw otherTenant();
    return tenant.id;
  }
  const principal = await context.principal();
  if (principal.role === 'TENANT' && principal.tenantId) {
    if (tenantId && tenantId !== principal.tenantId) throw otherTenant();
    return principal.tenantId;
  }
  if (principal.role !== 'SUPER_ADMIN') {
    throw new PlatformError(
      'PERMISSION_DENIED',
      `The lens account console needs a TENANT or SUPER_ADMIN token; this one is ${principal.role}.`,
    );
  }
  if (!tenantId) {
    throw new PlatformError('INVALID_REQUEST', 'tenantId: required with a SUPER_ADMIN token.');
  }
  if (!UUID.test(tenantId) || !(await context.services.accounts.find(context.em, tenantId))) {
    throw new PlatformError('NOT_FOUND', `No lens tenant ${tenantId}.`);
  }
  return tenantId;
}

const otherTenant = () =>
  new PlatformError('PERMISSION_DENIED', 'This credential belongs to another account.');

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

import { expect } from 'vitest';
import { cli, cliLines } from '../support/cli.js';
import { graphql, graphqlOk, type GraphQLResult } from '../support/clients.js';
import { errorCode } from './lens-client.js';

/** Whole-stack helpers of the account console tests (issue 24). */

export interface Account {
  tenantId: string;
  restKey: string;
  /** A TENANT platform token bound to this tenant. */
  console: string;
}

/** A new tenant (its REST key), and a TENANT token for its console. */
export async function newAccount(...args: string[]): Promise<Account> {
  const lines = await cliLines('lens:create-key', ...args);
  const match = /^tenant ([0-9a-f-]{36}), /.exec(lines.at(-2) ?? '');
  expect(match, lines.join('\n')).not.toBeNull();
  const tenantId = match![1]!;
  const console = await cli('auth:token', '--role', 'TENANT', '--tenant', tenantId);
  return { tenantId, restKey: lines.at(-1)!, console };
}

/** Another credential of the tenant, through the CLI (`--kind rest|mcp`). */
export const addCredential = (tenantId: string, kind: 'rest' | 'mcp') =>
  cli('lens:create-key', '--tenant', tenantId, '--kind', kind);

export const CREDENTIAL_FIELDS = 'id kind name prefix createdAt lastUsedAt revokedAt expiresAt';

export interface Credential {
  id: string;
  kind: string;
  name: string;
  prefix: string;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
  expiresAt: string | null;
}

export async function credentials(token: string, tenantId?: string): Promise<Credential[]> {
  const data = await graphqlOk<{ apiCredentials: Credential[] }>(
    `query($tenantId: ID) { apiCredentials(tenantId: $tenantId) { ${CREDENTIAL_FIELDS} } }`,
    { tenantId },
    token,
  );
  return data.apiCredentials;
}

export async function balanceOf(token: string, tenantId?: string): Promise<number> {
  const data = await graphqlOk<{ creditBalance: number }>(
    'query($tenantId: ID) { creditBalance(tenantId: $tenantId) }',
    { tenantId },
    token,
  );
  return data.creditBalance;
}

/** A GraphQL call that must be refused with `code`. */
export function expectRefused(result: GraphQLResult<unknown>, code: string) {
  expect(errorCode(result.errors), JSON.stringify(result)).toBe(code);
}

export const usageQuery = `query($from: String!, $to: String!, $tenantId: ID) {
  lensUsage(from: $from, to: $to, tenantId: $tenantId) {
    from to balance
    rows { day credentialId credentialKind operationName calls succeeded failed charged refunded }
    totals { calls charged refunded } } }`;

/** Yesterday and today (UTC): a range that holds every call of a test, even across midnight. */
export function recentDays(): { from: string; to: string } {
  const today = new Date();
  const yesterday = new Date(today.getTime() - 86_400_000);
  return { from: yesterday.toISOString().slice(0, 10), to: today.toISOString().slice(0, 10) };
}

export { graphql };

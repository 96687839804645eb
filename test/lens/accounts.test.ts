import { beforeAll, describe, expect, it } from 'vitest';
import { cli } from '../support/cli.js';
import { graphql, graphqlOk } from '../support/clients.js';
import { callTool, newKey, useClients } from '../mcp/mcp-client.js';
import {
  addCredential,
  balanceOf,
  CREDENTIAL_FIELDS,
  credentials,
  expectRefused,
  newAccount,
  type Account,
  type Credential,
} from './account-support.js';
import { expectError, profile, settled } from './engine-support.js';

const GOOD = { accountRef: { handle: 'minji.daily' } };

interface Issued {
  credential: Credential;
  secret: string;
  previous: Credential | null;
}
const ISSUED = `credential { ${CREDENTIAL_FIELDS} } secret previous { ${CREDENTIAL_FIELDS} }`;

describe('one account, many credentials (issue 24, item 1)', () => {
  const open = useClients();
  let account: Account;
  let toolToken: string;

  beforeAll(async () => {
    account = await newAccount('--credits', '100', '--rate-limit', '1000');
    toolToken = await addCredential(account.tenantId, 'mcp');
  });

  it('a REST key and an MCP token of one tenant spend one balance', async () => {
    const rested = await settled(account.restKey, await profile(account.restKey, GOOD));
    expect(rested).toMatchObject({ status: 'SUCCEEDED', credits: { charged: 1 } });
    const client = await open(toolToken);
    const tooled = await callTool(client, 'lens_accounts_profile', {
      ...GOOD,
      requestKey: newKey(),
    });
    expect(tooled.envelope).toMatchObject({ credits: { charged: 1 } });
    // One balance, whoever asks: the REST key, and the account's console.
    expect(await balanceOf(account.restKey)).toBe(98);
    expect(await balanceOf(account.console)).toBe(98);
    // Each credential still works on its own interface only.
    expectError(await profile(toolToken, GOOD), 401, 'TOOL_TOKEN_NOT_ALLOWED', false);
  });

  it('the rate limit is the tenant’s, shared by its credentials', async () => {
    const limited = await newAccount('--rate-limit', '2');
    const second = await addCredential(limited.tenantId, 'rest');
    await settled(limited.restKey, await profile(limited.restKey, GOOD));
    await settled(second, await profile(second, GOOD));
    // The third request of the minute, by either key, is over the tenant's limit of 2.
    expectError(await profile(second, GOOD), 429, 'RATE_LIMITED', true);
    expectError(await profile(limited.restKey, GOOD), 429, 'RATE_LIMITED', true);
  });

  it('--tenant adds to an existing tenant only, and keeps the tenant’s own settings', async () => {
    await expect(cli('lens:create-key', '--tenant', crypto.randomUUID())).rejects.toThrow(
      /no lens tenant/,
    );
    await expect(
      cli('lens:create-key', '--tenant', account.tenantId, '--credits', '5'),
    ).rejects.toThrow(/describe a new tenant/);
  });
});

describe('the account console over GraphQL (issue 24, item 2)', () => {
  let account: Account;
  let other: Account;
  let admin: string;

  beforeAll(async () => {
    [account, other, admin] = await Promise.all([
      newAccount('--credits', '50', '--rate-limit', '1000'),
      newAccount('--credits', '50'),
      cli('auth:token', '--role', 'SUPER_ADMIN'),
    ]);
    await addCredential(account.tenantId, 'mcp');
    await settled(account.restKey, await profile(account.restKey, GOOD));
  });

  it('lists credentials without secrets: kind, name, prefix, created, last used', async () => {
    const listed = await credentials(account.console);
    expect(listed.map((c) => [c.kind, c.name])).toEqual([
      ['rest', 'REST API key'],
      ['mcp', 'MCP token'],
    ]);
    expect(account.restKey.startsWith(listed[0]!.prefix)).toBe(true);
    expect(listed[0]!.prefix).toHaveLength(12);
    expect(listed[0]!.lastUsedAt).not.toBeNull();
    expect(listed[1]!.lastUsedAt).toBeNull();
    expect(JSON.stringify(listed)).not.toContain(account.restKey);
    // The same list for SUPER_ADMIN, which names the tenant.
    expect(await credentials(admin, account.tenantId)).toEqual(listed);
  });

  it('creates (secret shown once), rotates with a grace period, revokes at once', async () => {
    const created = await graphqlOk<{ createApiCredential: Issued }>(
      `mutation { createApiCredential(kind: "rest", name: "ci runner") { ${ISSUED} } }`,
      {},
      account.console,
    );
    const made = created.createApiCredential;
    expect(made.credential).toMatchObject({ kind: 'rest', name: 'ci runner', revokedAt: null });
    expect(made.secret.startsWith(made.credential.prefix)).toBe(true);
    expect((await profile(made.secret, GOOD)).status).toBe(200);

    const rotated = (
      await graphqlOk<{ rotateApiCredential: Issued }>(
        `mutation($id: ID!) { rotateApiCredential(id: $id) { ${ISSUED} } }`,
        { id: made.credential.id },
        account.console,
      )
    ).rotateApiCredential;
    expect(rotated.credential).toMatchObject({ kind: 'rest', name: 'ci runner' });
    expect(rotated.previous?.id).toBe(made.credential.id);
    const graceHours = (Date.parse(rotated.previous!.expiresAt!) - Date.now()) / 3_600_000;
    expect(graceHours).toBeGreaterThan(23.9);
    expect(graceHours).toBeLessThanOrEqual(24);
    // Both secrets work during the grace period.
    expect((await profile(rotated.secret, GOOD)).status).toBe(200);
    expect((await profile(made.secret, GOOD)).status).toBe(200);
    // A rotated credential is not rotated twice.
    const again = await graphql(
      `
        mutation ($id: ID!) {
          rotateApiCredential(id: $id) {
            secret
          }
        }
      `,
      { id: made.credential.id },
      account.console,
    );
    expectRefused(again, 'CONFLICT');

    const revoked = await graphqlOk<{ revokeApiCredential: Credential }>(
      `mutation($id: ID!) { revokeApiCredential(id: $id) { ${CREDENTIAL_FIELDS} } }`,
      { id: made.credential.id },
      account.console,
    );
    expect(revoked.revokeApiCredential.revokedAt).not.toBeNull();
    // At once: the very next request with the old secret is refused.
    expectError(await profile(made.secret, GOOD), 401, 'UNAUTHENTICATED', false);
    expect((await profile(rotated.secret, GOOD)).status).toBe(200);
  });

  it('refuses across tenants: another TENANT token sees and changes nothing', async () => {
    const [mine] = await credentials(account.console);
    expectRefused(
      await graphql(
        `
          mutation ($id: ID!) {
            revokeApiCredential(id: $id) {
              id
            }
          }
        `,
        { id: mine!.id },
        other.console,
      ),
      'NOT_FOUND',
    );
    expectRefused(
      await graphql(
        'query($t: ID) { apiCredentials(tenantId: $t) { id } }',
        { t: account.tenantId },
        other.console,
      ),
      'PERMISSION_DENIED',
    );
    expectRefused(
      await graphql(
        'query($t: ID) { creditLedger(tenantId: $t) { items { id } } }',
        { t: account.tenantId },
        other.console,
      ),
      'PERMISSION_DENIED',
    );
    // The key still works: nothing was revoked.
    expect((await profile(account.restKey, GOOD)).status).toBe(200);
  });

  it('a TENANT token has nothing of settlement, admin or top-ups; an API key manages nothing', async () => {
    expectRefused(
      await graphql('{ settlements { total } }', {}, account.console),
      'PERMISSION_DENIED',
    );
    expectRefused(
      await graphql('{ operationsRequiringReconciliation { nextCursor } }', {}, account.console),
      'PERMISSION_DENIED',
    );
    expectRefused(
      await graphql(
        'mutation($t: ID!) { topUpCredits(tenantId: $t, amount: 5, reason: "me") }',
        { t: account.tenantId },
        account.console,
      ),
      'PERMISSION_DENIED',
    );
    expectRefused(
      await graphql('{ apiCredentials { id } }', {}, account.restKey),
      'PERMISSION_DENIED',
    );
  });

  it('sets the low-balance alert: armed while the balance is at or above the threshold', async () => {
    const set = (email: string | null, below: number | null, token = account.console) =>
      graphql<{ setLowBalanceAlert: { email: string; below: number; armed: boolean } }>(
        'mutation($e: String, $b: Int) { setLowBalanceAlert(email: $e, below: $b) { email below armed } }',
        { e: email, b: below },
        token,
      );
    const balance = await balanceOf(account.console);
    expect((await set('billing@example.com', balance)).data?.setLowBalanceAlert).toEqual({
      email: 'billing@example.com',
      below: balance,
      armed: true,
    });
    expect((await set('billing@example.com', balance + 1)).data?.setLowBalanceAlert.armed).toBe(
      false,
    );
    expectRefused(await set('not an address', 5), 'INVALID_REQUEST');
    expectRefused(await set('billing@example.com', null), 'INVALID_REQUEST');
    expectRefused(await set('billing@example.com', 5, account.restKey), 'PERMISSION_DENIED');
    const read = await graphqlOk<{ lowBalanceAlert: { email: string | null; armed: boolean } }>(
      '{ lowBalanceAlert { email below armed } }',
      {},
      account.console,
    );
    expect(read.lowBalanceAlert).toEqual({
      email: 'billing@example.com',
      below: balance + 1,
      armed: false,
    });
    expect((await set(null, null)).data?.setLowBalanceAlert).toEqual({
      email: null,
      below: null,
      armed: false,
    });
  });

  it('SUPER_ADMIN tops up with a reason (a ledger entry) for a tenant it names', async () => {
    const before = await balanceOf(account.console);
    const topped = await graphqlOk<{ topUpCredits: number }>(
      'mutation($t: ID!) { topUpCredits(tenantId: $t, amount: 25, reason: "goodwill") }',
      { t: account.tenantId },
      admin,
    );
    expect(topped.topUpCredits).toBe(before + 25);
    const ledger = await graphqlOk<{
      creditLedger: { items: { kind: string; amount: number; reason: string | null }[] };
    }>('{ creditLedger(first: 1) { items { kind amount reason } } }', {}, account.console);
    expect(ledger.creditLedger.items[0]).toEqual({
      kind: 'TOP_UP',
      amount: 25,
      reason: 'goodwill',
    });
    expectRefused(await graphql('{ apiCredentials { id } }', {}, admin), 'INVALID_REQUEST');
    expectRefused(
      await graphql(
        'query($t: ID) { apiCredentials(tenantId: $t) { id } }',
        {
          t: crypto.randomUUID(),
        },
        admin,
      ),
      'NOT_FOUND',
    );
  });
});

import { beforeAll, describe, expect, it } from 'vitest';
import { cli } from '../support/cli.js';
import { AS_GATEWAY, codeOf, graphql, graphqlOk, stack } from '../support/clients.js';
import { restOk } from '../lens/lens-client.js';
import {
  adminToken,
  createAdvertiser,
  createPartner,
  newSettlement,
  partnerToken,
} from '../settlement/support.js';

/**
 * Who reads stored observations (DESIGN.md L13): admin tokens through `account`, a partner only
 * through its own `Partner.account`, never an anonymous caller or an API key; and the subgraphs
 * answer only the gateway.
 */
const ACCOUNT =
  'query($id: String!) { account(accountId: $id) { handle followerCount observedAt } }';
describe('stored observations are not free data', () => {
  let accountId: string;
  let apiKey: string;
  let superAdmin: string;
  let settlementId: string;
  let partnerId: number;

  beforeAll(async () => {
    [apiKey, superAdmin] = await Promise.all([
      cli('lens:create-key', '--credits', '100'),
      adminToken(),
    ]);
    const looked = await restOk<{ accountId: string }>(
      'accounts.profile',
      { accountRef: { handle: 'guarded.observation' } },
      apiKey,
    );
    accountId = looked.data.accountId;
    partnerId = await createPartner(superAdmin, 'INDIVIDUAL', { accountId });
    settlementId = await newSettlement(superAdmin, {
      partnerId,
      advertiserId: await createAdvertiser(superAdmin),
    });
  });

  it('an anonymous caller gets 401 UNAUTHENTICATED and no data', async () => {
    const result = await graphql(ACCOUNT, { id: accountId });
    expect(codeOf(result)).toBe('UNAUTHENTICATED');
    expect(result.data ?? null).toBeNull();
  });

  it('an API key cannot read observations for free (only through billed operations)', async () => {
    const result = await graphql(ACCOUNT, { id: accountId }, apiKey);
    expect(codeOf(result)).toBe('UNAUTHENTICATED');
    expect(result.data ?? null).toBeNull();
  });

  it('a partner token may not use the root query (403)', async () => {
    const result = await graphql(ACCOUNT, { id: accountId }, await partnerToken(partnerId));
    expect(codeOf(result)).toBe('PERMISSION_DENIED');
  });

  it('SUPER_ADMIN and ADMIN tokens read the stored observation', async () => {
    for (const token of [superAdmin, await cli('auth:token', '--role', 'ADMIN')]) {
      const { account } = await graphqlOk<{ account: { handle: string } }>(
        ACCOUNT,
        { id: accountId },
        token,
      );
      expect(account.handle).toBe('guarded.observation');
    }
  });

  it("a partner reaches its own partner's account through Partner.account", async () => {
    const { partnerSettlement } = await graphqlOk<{
      partnerSettlement: { partner: { account: { handle: string; observedAt: string } } };
    }>(
      'query($id: ID!) { partnerSettlement(id: $id) { partner { account { handle observedAt } } } }',
      { id: settlementId },
      await partnerToken(partnerId),
    );
    expect(partnerSettlement.partner.account.handle).toBe('guarded.observation');
  });

  it('many aliases of the root query are refused before any subgraph work', async () => {
    const aliases = Array.from(
      { length: 3000 },
      (_, i) => `a${i}: account(accountId: "1") { handle }`,
    );
    const result = await graphql(`{ ${aliases.join(' ')} }`, {}, superAdmin);
    expect(codeOf(result)).toBe('GRAPHQL_VALIDATION_FAILED');
    expect(result.data ?? null).toBeNull();
  });
});

describe('the subgraphs answer only the gateway', () => {
  const entities =
    'query($r: [_Any!]!) { _entities(representations: $r) { ... on Account { handle } } }';

  const direct = async (url: string, headers: Record<string, string>, query = entities) => {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify({
        query,
        variables: { r: [{ __typename: 'Account', accountId: '1' }] },
      }),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };

  it.each(['lens', 'settlement'] as const)(
    '%s: 401 without the subgraph secret, or with a wrong one',
    async (name) => {
      const url = stack()[name];
      const admin = { authorization: `Bearer ${await adminToken()}` };
      for (const headers of [admin, { ...admin, 'x-subgraph-secret': 'guess-guess-guess-guess' }]) {
        const { status, body } = await direct(url, headers, '{ __typename }');
        expect(status).toBe(401);
        expect(JSON.stringify(body)).toContain('UNAUTHENTICATED');
      }
    },
  );

  it('lens _entities answers the gateway (secret) for a platform token, not for anyone else', async () => {
    const admin = { authorization: `Bearer ${await adminToken()}` };
    const ok = await direct(stack().lens, { ...admin, ...AS_GATEWAY });
    expect(ok.status).toBe(200);
    expect((ok.body['data'] as { _entities: unknown[] })._entities).toHaveLength(1);
    const anonymous = await direct(stack().lens, AS_GATEWAY);
    expect(JSON.stringify(anonymous.body)).toContain('UNAUTHENTICATED');
  });

  it('health probes need no secret', async () => {
    for (const url of [stack().lens, stack().settlement]) {
      expect((await fetch(new URL('/healthz', url))).status).toBe(200);
      expect((await fetch(new URL('/readyz', url))).status).toBe(200);
    }
  });
});

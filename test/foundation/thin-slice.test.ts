import { beforeAll, describe, expect, it } from 'vitest';
import { cli, cliProcess } from '../support/cli.js';
import { graphqlOk, rest, stack } from '../support/clients.js';
import { ACCOUNT_SUMMARY_KEYS } from '../lens/lens-client.js';
import { createPartner, INDIVIDUAL_AMOUNTS } from '../settlement/support.js';

describe('one real path through every layer', () => {
  let apiKey: string;
  let adminToken: string;

  beforeAll(async () => {
    // The real `npm run cli` in a process of its own, once; other tests run its code in process.
    [apiKey, adminToken] = await Promise.all([
      cliProcess(stack(), 'lens:create-key', '--credits', '50'),
      cli('auth:token', '--role', 'SUPER_ADMIN'),
    ]);
  });

  it('every service answers /healthz and /readyz', async () => {
    const { rest: restUrl, gateway, lens, settlement } = stack();
    for (const base of [restUrl, gateway, lens, settlement]) {
      for (const probe of ['/healthz', '/readyz']) {
        const response = await fetch(new URL(probe, base));
        expect(response.status, `${base} ${probe}`).toBe(200);
      }
    }
  });

  it('POST /api/lens/v1/accounts/profile answers the documented envelope and charges credits', async () => {
    const response = await rest('POST', '/api/lens/v1/accounts/profile', {
      token: apiKey,
      headers: { 'idempotency-key': 'thin-slice-1' },
      body: { accountRef: { handle: 'minji.daily' } },
    });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body['success']).toBe(true);
    const envelope = response.body['data'] as Record<string, unknown>;
    expect(Object.keys(envelope).sort()).toEqual(
      ['credits', 'data', 'operationId', 'operationName', 'replayed', 'status'].sort(),
    );
    expect(envelope['operationId']).toMatch(/^[0-9a-f-]{36}$/);
    expect(envelope).toMatchObject({
      operationName: 'accounts.profile',
      status: 'SUCCEEDED',
      replayed: false,
    });
    const credits = envelope['credits'] as Record<string, number>;
    expect(credits.reserved).toBe(credits.charged + credits.refunded);
    expect(credits.charged).toBeGreaterThan(0);
    const profile = envelope['data'] as Record<string, unknown>;
    expect(Object.keys(profile).sort()).toEqual(ACCOUNT_SUMMARY_KEYS);
    expect(profile['handle']).toBe('minji.daily');
    expect(response.headers.get('lens-observed-at')).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    expect(await cli('lens:credits', apiKey)).toBe(String(50 - credits.charged));
  });

  it('creates a settlement with the section 2.2 amounts and serves it over REST, joined to the lens Account', async () => {
    const profile = await rest('POST', '/api/lens/v1/accounts/profile', {
      token: apiKey,
      headers: { 'idempotency-key': 'thin-slice-partner' },
      body: { accountRef: { handle: 'haneul.cooks' } },
    });
    const observed = (
      profile.body['data'] as { data: { accountId: string; followerCount: number } }
    ).data;

    const partnerId = await createPartner(adminToken, 'INDIVIDUAL', {
      name: 'Haneul Kim',
      email: 'haneul@example.com',
      accountNumber: '3333-01-1111111',
      accountHolder: 'Kim Haneul',
      accountId: observed.accountId,
    });
    const { createAdvertiser } = await graphqlOk<{ createAdvertiser: { id: number } }>(
      `mutation { createAdvertiser(input: { name: "Blue Bottle Seoul", email: "ads@bluebottle.example" }) { id } }`,
      {},
      adminToken,
    );
    const { createCampaign } = await graphqlOk<{ createCampaign: { id: string } }>(
      `mutation($input: CreateCampaignInput!) { createCampaign(input: $input) { id } }`,
      {
        input: {
          partnerId,
          advertiserId: createAdvertiser.id,
          title: 'Pour-over reels',
          price: '1000005.00',
        },
      },
      adminToken,
    );
    const { markCampaignUploaded } = await graphqlOk<{
      markCampaignUploaded: { status: string; settlement: { id: string } };
    }>(
      `mutation($id: ID!) { markCampaignUploaded(id: $id) { status settlement { id } } }`,
      { id: createCampaign.id },
      adminToken,
    );
    expect(markCampaignUploaded.status).toBe('UPLOADED');
    const settlementId = markCampaignUploaded.settlement.id;
    expect(settlementId).toMatch(/^SET\d+$/);

    const detail = await rest('GET', `/api/admin/settlements/${settlementId}`, {
      token: adminToken,
    });
    expect(detail.status).toBe(200);
    expect(detail.body).toEqual({
      success: true,
      data: expect.objectContaining({
        id: settlementId,
        campaignId: createCampaign.id,
        status: 'SETTLEMENT_PENDING',
        settlementType: 'PLATFORM_SETTLEMENT',
        ...INDIVIDUAL_AMOUNTS,
        bankName: 'Kakao Bank',
      }),
    });

    const joined = await graphqlOk<{
      settlement: {
        partner: {
          name: string;
          account: { handle: string; followerCount: number; observedAt: string };
        };
      };
    }>(
      `query($id: ID!) { settlement(id: $id) { partner { name account { handle followerCount observedAt } } } }`,
      { id: settlementId },
      adminToken,
    );
    expect(joined.settlement.partner.account).toMatchObject({
      handle: 'haneul.cooks',
      followerCount: observed.followerCount,
    });
    expect(joined.settlement.partner.account.observedAt).toMatch(/^\d{4}-/);
  });
});

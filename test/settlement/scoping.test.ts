import { beforeAll, describe, expect, it } from 'vitest';
import { codeById, graphql } from '../support/clients.js';
import * as f from './support.js';

type Page = f.Page;

/** DESIGN S9: who sees what; out of scope is a 404, the wrong role a 403, no credential a 401. */
describe('access and scope', () => {
  const ctx = f.useAdmin();
  let agency2Admin: string;
  let defaultAgencyAdmin: string;
  let partnerA: { id: number; token: string };
  let partnerB: { id: number; token: string };
  let advertiserId: number;
  /** Partner A's settlements in agency 2 and in the default agency; partner B's in the default. */
  let sA2: string;
  let sA0: string;
  let sB0: string;
  let campaignB0: string;

  beforeAll(async () => {
    const [a, b, adv] = await Promise.all([
      f.createPartner(ctx.admin, 'CORPORATE_BUSINESS'),
      f.createPartner(ctx.admin, 'INDIVIDUAL'),
      f.createAdvertiser(ctx.admin),
    ]);
    advertiserId = adv;
    const [ta, tb, t2, t1] = await Promise.all([
      f.partnerToken(a),
      f.partnerToken(b),
      f.adminToken('2'),
      f.adminToken('1'),
    ]);
    partnerA = { id: a, token: ta };
    partnerB = { id: b, token: tb };
    agency2Admin = t2;
    defaultAgencyAdmin = t1;
    sA2 = await f.newSettlement(ctx.admin, { partnerId: a, advertiserId, agencyId: 2 });
    sA0 = await f.newSettlement(ctx.admin, { partnerId: a, advertiserId });
    campaignB0 = await f.createCampaign(ctx.admin, { partnerId: b, advertiserId });
    sB0 = await f.markUploaded(ctx.admin, campaignB0);
  });

  const ids = (page: Page) => page.items.map((s) => s.id).sort();

  it('SUPER_ADMIN sees every agency', async () => {
    for (const id of [sA2, sA0, sB0]) await f.expectOk(f.call('GET', f.adminPath(id), ctx.admin));
    const page = await f.page(`/api/admin/settlements?partnerId=${partnerA.id}`, ctx.admin);
    expect(ids(page)).toEqual([sA0, sA2].sort());
    expect(page.total).toBe(2);
  });

  it('an agency ADMIN sees its agency only; null agencyId counts as the default agency', async () => {
    await f.expectOk(f.call('GET', f.adminPath(sA2), agency2Admin));
    await f.expectError(f.call('GET', f.adminPath(sA0), agency2Admin), 404, 'NOT_FOUND');
    await f.expectError(f.call('GET', f.adminPath(sB0), agency2Admin), 404, 'NOT_FOUND');
    await f.expectOk(f.call('GET', f.adminPath(sA0), defaultAgencyAdmin));
    await f.expectOk(f.call('GET', f.adminPath(sB0), defaultAgencyAdmin));
    await f.expectError(f.call('GET', f.adminPath(sA2), defaultAgencyAdmin), 404, 'NOT_FOUND');

    const agency2 = await f.page(`/api/admin/settlements?partnerId=${partnerA.id}`, agency2Admin);
    expect(ids(agency2)).toEqual([sA2]);
    const foreign = await f.page(
      `/api/admin/settlements?partnerId=${partnerA.id}&agencyId=1`,
      agency2Admin,
    );
    expect(foreign).toEqual({ items: [], nextCursor: null, total: 0 });
    const byDefault = await f.page(
      `/api/admin/settlements?partnerId=${partnerA.id}&agencyId=1`,
      ctx.admin,
    );
    expect(ids(byDefault)).toEqual([sA0]);
  });

  it('out of scope is a 404 for every admin action, and nothing changes', async () => {
    const before = await f.rowCounts(ctx.db, [sA0]);
    for (const [method, path, body] of [
      ['GET', '/reverse-issuance-status', undefined],
      ['PATCH', '/status', { status: 'SETTLEMENT_CANCELLED' }],
      ['PATCH', '/type', { settlementType: 'DIRECT_INVOICE' }],
      ['POST', '/start-payout', undefined],
      ['POST', '/complete', undefined],
      ['POST', '/retry-issuance', undefined],
      ['POST', '/invoice-issued', undefined],
      ['POST', '/invoice-paid', undefined],
      ['POST', '/cancel', undefined],
    ] as const) {
      await f.expectError(
        f.call(method, f.adminPath(sA0, path), agency2Admin, body),
        404,
        'NOT_FOUND',
      );
    }
    expect(await f.rowCounts(ctx.db, [sA0])).toEqual(before);
  });

  it('campaigns are scoped too: upload, read and create', async () => {
    const campaign = await f.createCampaign(ctx.admin, { partnerId: partnerB.id, advertiserId });
    expect(await codeById('mutation', 'markCampaignUploaded', campaign, agency2Admin)).toBe(
      'NOT_FOUND',
    );
    expect(await codeById('query', 'campaign', campaignB0, agency2Admin)).toBe('NOT_FOUND');

    const own = await graphql<{ createCampaign: { agencyId: number } }>(
      `
        mutation ($input: CreateCampaignInput!) {
          createCampaign(input: $input) {
            agencyId
          }
        }
      `,
      {
        input: {
          partnerId: partnerB.id,
          advertiserId,
          title: 'Agency 2 campaign',
          price: '100.00',
        },
      },
      agency2Admin,
    );
    expect(own.data?.createCampaign.agencyId).toBe(2);
    const other = await graphql(
      `
        mutation ($input: CreateCampaignInput!) {
          createCampaign(input: $input) {
            id
          }
        }
      `,
      { input: { partnerId: partnerB.id, advertiserId, agencyId: 1, title: 'x', price: '100.00' } },
      agency2Admin,
    );
    // Another agency is out of scope: 404 like every scoped read (issue 23), not a 400.
    expect(other.errors?.[0]?.extensions?.['code']).toBe('NOT_FOUND');
  });

  it('a PARTNER sees its own settlements only', async () => {
    await f.expectOk(f.call('GET', f.partnerPath(sA2), partnerA.token));
    await f.expectOk(f.call('GET', f.partnerPath(sA0), partnerA.token));
    await f.expectError(f.call('GET', f.partnerPath(sB0), partnerA.token), 404, 'NOT_FOUND');
    const own = await f.page('/api/partner/settlements', partnerA.token);
    expect(ids(own)).toEqual([sA0, sA2].sort());
    const before = await f.rowCounts(ctx.db, [sB0]);
    for (const path of ['/request', '/invoice-issued', '/invoice-paid']) {
      await f.expectError(
        f.call('POST', f.partnerPath(sB0, path), partnerA.token),
        404,
        'NOT_FOUND',
      );
    }
    await f.expectError(
      f.call('GET', f.partnerPath(sB0, '/reverse-issuance-grant-url'), partnerA.token),
      404,
      'NOT_FOUND',
    );
    expect(await f.rowCounts(ctx.db, [sB0])).toEqual(before);
  });

  it('a PARTNER token on an admin path is a 403; an admin token on a partner path too', async () => {
    for (const [method, path] of [
      ['GET', '/api/admin/settlements'],
      ['GET', f.adminPath(sA0)],
      ['GET', f.adminPath(sA0, '/reverse-issuance-status')],
      ['PATCH', f.adminPath(sA0, '/status')],
      ['POST', f.adminPath(sA0, '/cancel')],
    ] as const) {
      const body = method === 'PATCH' ? { status: 'SETTLEMENT_CANCELLED' } : undefined;
      await f.expectError(f.call(method, path, partnerA.token, body), 403, 'PERMISSION_DENIED');
    }
    for (const path of [
      '/api/partner/settlements',
      '/api/partner/settlements/summary',
      f.partnerPath(sA0),
      f.partnerPath(sA0, '/reverse-issuance-grant-url'),
    ]) {
      await f.expectError(f.call('GET', path, ctx.admin), 403, 'PERMISSION_DENIED');
    }
    await f.expectError(
      f.call('POST', f.partnerPath(sA0, '/request'), ctx.admin),
      403,
      'PERMISSION_DENIED',
    );
  });

  it('no token, a malformed token or a forged one is a 401', async () => {
    const forged = `${ctx.admin.slice(0, -4)}AAAA`;
    for (const token of [undefined, 'not-a-jwt', forged]) {
      await f.expectError(f.call('GET', '/api/admin/settlements', token), 401, 'UNAUTHENTICATED');
      await f.expectError(f.call('GET', f.adminPath(sA0), token), 401, 'UNAUTHENTICATED');
      await f.expectError(
        f.call('GET', '/api/partner/settlements/summary', token),
        401,
        'UNAUTHENTICATED',
      );
      await f.expectError(
        f.call('POST', f.partnerPath(sA0, '/request'), token),
        401,
        'UNAUTHENTICATED',
      );
    }
  });

  it('GraphQL: a partner gets no advertiser invoice and no audit trail', async () => {
    await f.expectOk(f.call('POST', f.adminPath(sA0, '/retry-issuance'), ctx.admin));
    const own = await graphql<{
      partnerSettlement: { advertiserInvoiceId: number; advertiserInvoice: null };
    }>(
      `
        query ($id: ID!) {
          partnerSettlement(id: $id) {
            advertiserInvoiceId
            advertiserInvoice {
              id
            }
          }
        }
      `,
      { id: sA0 },
      partnerA.token,
    );
    expect(own.errors).toBeUndefined();
    expect(own.data!.partnerSettlement.advertiserInvoiceId).toEqual(expect.any(Number));
    expect(own.data!.partnerSettlement.advertiserInvoice).toBeNull();
    const audit = await graphql(
      `
        query ($id: ID!) {
          partnerSettlement(id: $id) {
            auditTrail {
              action
            }
          }
        }
      `,
      { id: sA0 },
      partnerA.token,
    );
    expect(audit.errors?.[0]?.extensions?.['code']).toBe('PERMISSION_DENIED');
  });
});

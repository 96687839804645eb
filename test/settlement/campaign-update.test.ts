import { beforeAll, describe, expect, it } from 'vitest';
import { codeOf, graphql, graphqlOk } from '../support/clients.js';
import * as a from './admin-support.js';
import * as f from './support.js';

/**
 * updateCampaign (issue 12, GraphQL only): title, price, commission rate and agency; the
 * settlement follows (agency sync of spec 3, recalculated amounts) in the same transaction, only
 * while no money has moved (S5); scope and bad input as everywhere.
 */
describe('updateCampaign', () => {
  const ctx = f.useAdmin();
  let cast: Awaited<ReturnType<typeof f.partnerAndAdvertiser>>;

  beforeAll(async () => {
    cast = await f.partnerAndAdvertiser(ctx.admin, 'INDIVIDUAL');
  });

  const campaign = (extra: Record<string, unknown> = {}) =>
    f.createCampaign(ctx.admin, {
      partnerId: cast.partnerId,
      advertiserId: cast.advertiserId,
      ...extra,
    });

  const campaignRow = async (id: string) =>
    (
      await ctx.db.query(
        `select title, price::text, commission_rate::text, agency_id::int, status from campaign where id = $1`,
        [id],
      )
    )[0];

  it('changes a campaign without a settlement and audits it', async () => {
    const id = await campaign();
    const { data } = await a.updateCampaign(ctx.admin, id, {
      title: 'Renamed',
      price: '2500000.00',
      commissionRate: '12.50',
    });
    expect(data?.updateCampaign).toMatchObject({
      id,
      title: 'Renamed',
      price: '2500000.00',
      commissionRate: '12.50',
      agencyId: null,
      settlement: null,
    });
    const { campaign: read } = await graphqlOk<{ campaign: { auditTrail: unknown[] } }>(
      `query($id: ID!) { campaign(id: $id) { auditTrail { action actorRole before after } } }`,
      { id },
      ctx.admin,
    );
    expect(read.auditTrail).toEqual([
      {
        action: 'UPDATED',
        actorRole: 'SUPER_ADMIN',
        before: { title: expect.any(String), price: '1000000.00', commissionRate: null },
        after: { title: 'Renamed', price: '2500000.00', commissionRate: '12.50' },
      },
    ]);
    const { data: cleared } = await a.updateCampaign(ctx.admin, id, { commissionRate: null });
    expect(cleared?.updateCampaign['commissionRate']).toBeNull();
  });

  it('price and rate recalculate the settlement; agencyId moves it, with an audit entry', async () => {
    const agency = await a.createAgency(ctx.admin);
    const id = await f.newSettlement(ctx.admin, {
      partnerId: cast.partnerId,
      advertiserId: cast.advertiserId,
    });
    const { data } = await a.updateCampaign(ctx.admin, await settlementCampaign(id), {
      price: '2000000.00',
      commissionRate: '10.00',
      agencyId: agency.id,
    });
    // INDIVIDUAL in PLATFORM_SETTLEMENT: 10 + 10 points, withholding 3.3 % of the rest.
    expect(data?.updateCampaign['settlement']).toMatchObject({
      id,
      agencyId: agency.id,
      campaignPrice: '2000000.00',
      commissionRate: '20.00',
      commissionAmount: '400000.00',
      settlementAmount: '1600000.00',
      withholdingTaxAmount: '52800.00',
      payoutAmount: '1547200.00',
      status: 'SETTLEMENT_PENDING',
    });
    const trail = await f.auditOf(ctx.db, id);
    expect(trail.at(-1)).toMatchObject({ action: 'CAMPAIGN_CHANGED', actor_role: 'SUPER_ADMIN' });
    const { settlement } = await graphqlOk<{
      settlement: { auditTrail: { action: string; details: Record<string, unknown> }[] };
    }>(
      `query($id: ID!) { settlement(id: $id) { auditTrail { action details } } }`,
      { id },
      ctx.admin,
    );
    expect(settlement.auditTrail.at(-1)).toMatchObject({
      action: 'CAMPAIGN_CHANGED',
      details: {
        changed: {
          before: { price: '1000000.00', commissionRate: null, agencyId: null },
          after: { price: '2000000.00', commissionRate: '10.00', agencyId: String(agency.id) },
        },
        before: { campaignPrice: '1000000.00', commissionAmount: '300000.00' },
        after: { campaignPrice: '2000000.00', commissionAmount: '400000.00' },
      },
    });
    // Back to the default agency: stored as null (spec 2.3), on the settlement too.
    const { data: back } = await a.updateCampaign(ctx.admin, await settlementCampaign(id), {
      agencyId: null,
    });
    expect(back?.updateCampaign).toMatchObject({ agencyId: null, settlement: { agencyId: null } });
  });

  async function settlementCampaign(settlementId: string): Promise<string> {
    const [row] = await ctx.db.query<{ campaign_id: string }>(
      'select campaign_id from settlement where id = $1',
      [settlementId],
    );
    return row!.campaign_id;
  }

  it('after a request, withdraws the DRAFT invoice and starts over from SETTLEMENT_PENDING', async () => {
    const id = await f.newSettlement(ctx.admin, {
      partnerId: cast.partnerId,
      advertiserId: cast.advertiserId,
    });
    await f.expectOk(f.call('POST', f.partnerPath(id, '/request'), cast.partner));
    const issued = await f.expectOk(f.call('POST', f.adminPath(id, '/retry-issuance'), ctx.admin));
    const invoiceId = issued.advertiserInvoiceId;
    const { data } = await a.updateCampaign(ctx.admin, await settlementCampaign(id), {
      price: '1500000.00',
    });
    expect(data?.updateCampaign['settlement']).toMatchObject({
      status: 'SETTLEMENT_PENDING',
      campaignPrice: '1500000.00',
      advertiserInvoiceId: null,
    });
    const [invoice] = await ctx.db.query('select status from advertiser_invoice where id = $1', [
      invoiceId,
    ]);
    expect(invoice).toEqual({ status: 'CANCELLED' });
  });

  it('once money has moved, a 409 says why and nothing is written', async () => {
    const paid = await f.newSettlement(ctx.admin, {
      partnerId: cast.partnerId,
      advertiserId: cast.advertiserId,
    });
    await f.walkTo(ctx.admin, cast.partner, paid, 'ADVERTISER_PAID');
    const direct = await f.newSettlement(ctx.admin, {
      partnerId: cast.partnerId,
      advertiserId: cast.advertiserId,
      settlementType: 'DIRECT_INVOICE',
    });
    await f.expectOk(f.call('POST', f.partnerPath(direct, '/request'), cast.partner));
    await f.expectOk(f.call('POST', f.adminPath(direct, '/invoice-issued'), ctx.admin));
    const cases: [string, Record<string, unknown>, RegExp][] = [
      [paid, { price: '1.00' }, /it is ADVERTISER_PAID/],
      [paid, { agencyId: 2 }, /it is ADVERTISER_PAID/],
      [paid, { commissionRate: '5.00', title: 'With a new title' }, /it is ADVERTISER_PAID/],
      [direct, { price: '1.00' }, /tax invoice was already issued/],
    ];
    for (const [settlementId, input, why] of cases) {
      const campaignId = await settlementCampaign(settlementId);
      const before = [await f.rowCounts(ctx.db, [settlementId]), await campaignRow(campaignId)];
      const result = await a.updateCampaign(ctx.admin, campaignId, input);
      expect(codeOf(result)).toBe('CONFLICT');
      expect(result.errors?.[0]?.message).toMatch(why);
      expect(result.errors?.[0]?.message).toMatch(/no money has moved|before any invoice/);
      expect([await f.rowCounts(ctx.db, [settlementId]), await campaignRow(campaignId)]).toEqual(
        before,
      );
    }
    // The title alone changes no money: allowed at any time.
    const { data } = await a.updateCampaign(ctx.admin, await settlementCampaign(paid), {
      title: 'Late rename',
    });
    expect(data?.updateCampaign['title']).toBe('Late rename');
  });

  it('scope: an agency admin cannot move a campaign out of, or into, another agency (404)', async () => {
    const agency2 = await f.adminToken('2');
    const own = await campaign({ agencyId: 2 });
    const foreign = await campaign();
    const inactive = await a.createAgency(ctx.admin);
    await f.expectOk(a.adminCall('DELETE', `/api/admin/agencies/${inactive.id}`, ctx.admin));
    const refused: [string, string, Record<string, unknown>, string][] = [
      [agency2, foreign, { title: 'Not mine' }, 'NOT_FOUND'],
      [agency2, own, { agencyId: 1 }, 'NOT_FOUND'],
      [agency2, own, { agencyId: null }, 'NOT_FOUND'],
      [agency2, own, { agencyId: inactive.id }, 'NOT_FOUND'],
      [ctx.admin, own, { agencyId: inactive.id }, 'CONFLICT'],
      [ctx.admin, own, { agencyId: 999999999 }, 'INVALID_REQUEST'],
      [ctx.admin, 'CAM999999999', { title: 'x' }, 'NOT_FOUND'],
    ];
    for (const [token, id, input, code] of refused) {
      const before = await campaignRow(id);
      expect(codeOf(await a.updateCampaign(token, id, input)), JSON.stringify(input)).toBe(code);
      expect(await campaignRow(id)).toEqual(before);
    }
    const { data } = await a.updateCampaign(agency2, own, { title: 'Mine', agencyId: 2 });
    expect(data?.updateCampaign).toMatchObject({ title: 'Mine', agencyId: 2 });
  });

  it('bad input is a 400 with nothing written; partners 403, no token 401', async () => {
    const id = await campaign();
    const before = await campaignRow(id);
    for (const input of [
      { price: '1.005' },
      { price: '-1.00' },
      { price: null },
      { title: '' },
      { title: null },
      { title: 'x'.repeat(201) },
      { commissionRate: '100.01' },
      { status: 'COMPLETED' },
    ]) {
      expect(codeOf(await a.updateCampaign(ctx.admin, id, input)), JSON.stringify(input)).toMatch(
        /INVALID_REQUEST|BAD_USER_INPUT/,
      );
    }
    const numeric = await graphql(
      `
        mutation ($id: ID!) {
          updateCampaign(id: $id, input: { price: 100 }) {
            id
          }
        }
      `,
      { id },
      ctx.admin,
    );
    expect(numeric.errors).toHaveLength(1);
    expect(await campaignRow(id)).toEqual(before);
    expect(codeOf(await a.updateCampaign(cast.partner, id, { title: 'x' }))).toBe(
      'PERMISSION_DENIED',
    );
    const anonymous = await graphql(
      `
        mutation ($id: ID!) {
          updateCampaign(id: $id, input: { title: "x" }) {
            id
          }
        }
      `,
      { id },
    );
    expect(anonymous.errors?.[0]?.extensions?.['code']).toBe('UNAUTHENTICATED');
  });
});

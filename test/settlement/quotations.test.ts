import { describe, expect, it } from 'vitest';
import { graphql, graphqlOk } from '../support/clients.js';
import * as a from './admin-support.js';
import { base, seoulDate, useQuotations, type QuotationBody } from './quotation-support.js';
import * as f from './support.js';

/** Spec 4.5 and S14 through REST and GraphQL (issue 12): the quotation itself. */
describe('quotations: create, read, update and list', () => {
  const ctx = useQuotations();

  it('creates a DRAFT (201) with its amounts; reads and updates it (REST = GraphQL)', async () => {
    const created = await ctx.create();
    expect(created).toEqual({
      id: expect.stringMatching(/^QUO[1-9]\d*$/),
      status: 'DRAFT',
      advertiserId: ctx.advertiser.id,
      agencyId: null,
      title: 'Spring launch',
      validUntil: '2099-01-31',
      lines: [
        {
          partnerId: ctx.partners[0]!.id,
          deliverable: 'Reel 1',
          price: '1000000.00',
          commissionRate: '15.00',
        },
        {
          partnerId: ctx.partners[1]!.id,
          deliverable: 'Reel 2',
          price: '333333.35',
          commissionRate: null,
        },
      ],
      supplyAmount: '1333333.35',
      vatAmount: '133333.00',
      totalAmount: '1466666.35',
      campaignIds: [],
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    expect(await f.expectOk(a.adminCall('GET', `${base}/${created.id}`, ctx.admin))).toEqual(
      created,
    );
    const { quotation } = await graphqlOk<{ quotation: QuotationBody }>(
      `query($id: ID!) { quotation(id: $id) { id status advertiserId agencyId title validUntil
        lines { partnerId deliverable price commissionRate } supplyAmount vatAmount totalAmount
        campaignIds createdAt updatedAt } }`,
      { id: created.id },
      ctx.admin,
    );
    expect(quotation).toEqual(created);

    const updated = await f.expectOk<QuotationBody>(
      a.adminCall(
        'PUT',
        `${base}/${created.id}`,
        ctx.admin,
        ctx.body(1, { title: 'Spring launch v2', agencyId: 2 }),
      ),
    );
    expect(updated).toMatchObject({
      id: created.id,
      status: 'DRAFT',
      title: 'Spring launch v2',
      agencyId: 2,
      supplyAmount: '1000000.00',
      vatAmount: '100000.00',
      totalAmount: '1100000.00',
    });
    expect(updated.lines).toHaveLength(1);
    const viaGraphql = await graphqlOk<{ updateQuotation: { title: string } }>(
      `mutation($id: ID!, $input: QuotationInput!) { updateQuotation(id: $id, input: $input) { title } }`,
      { id: created.id, input: ctx.body(2, { title: 'Spring launch v3' }) },
      ctx.admin,
    );
    expect(viaGraphql.updateQuotation.title).toBe('Spring launch v3');
  });

  it('the GraphQL mutations of the paths: create, status, execute, cancel', async () => {
    const run = <T>(query: string, variables: Record<string, unknown>) =>
      graphqlOk<T>(query, variables, ctx.admin);
    const { createQuotation: q } = await run<{ createQuotation: { id: string; status: string } }>(
      `mutation($input: QuotationInput!) { createQuotation(input: $input) { id status } }`,
      { input: ctx.body(2) },
    );
    expect(q.status).toBe('DRAFT');
    for (const status of ['SENT', 'ACCEPTED']) {
      const { changeQuotationStatus } = await run<{ changeQuotationStatus: { status: string } }>(
        `mutation($id: ID!, $input: ChangeQuotationStatusInput!) {
          changeQuotationStatus(id: $id, input: $input) { status } }`,
        { id: q.id, input: { status } },
      );
      expect(changeQuotationStatus.status).toBe(status);
    }
    const { executeQuotation } = await run<{
      executeQuotation: {
        status: string;
        campaignIds: string[];
        campaigns: { quotationId: string }[];
      };
    }>(
      `mutation($id: ID!) { executeQuotation(id: $id) { status campaignIds campaigns { quotationId } } }`,
      { id: q.id },
    );
    expect(executeQuotation).toMatchObject({
      status: 'EXECUTED',
      campaigns: [{ quotationId: q.id }, { quotationId: q.id }],
    });
    expect(executeQuotation.campaignIds).toHaveLength(2);
    const cancel = await graphql(
      `
        mutation ($id: ID!) {
          cancelQuotation(id: $id) {
            id
          }
        }
      `,
      { id: q.id },
      ctx.admin,
    );
    expect(cancel.errors?.[0]?.extensions).toMatchObject({
      code: 'INVALID_STATUS_TRANSITION',
      currentStatus: 'EXECUTED',
      allowedMoves: [],
    });
    const { cancelQuotation } = await run<{ cancelQuotation: { status: string } }>(
      `mutation($id: ID!) { cancelQuotation(id: $id) { status } }`,
      { id: (await ctx.create()).id },
    );
    expect(cancelQuotation.status).toBe('CANCELLED');
  });

  it('lists newest first with filters and pages', async () => {
    const [first, second] = [await ctx.create(), await ctx.create(ctx.body(1, { agencyId: 2 }))];
    await f.expectOk(ctx.move(second.id, 'SENT'));
    const mine = `advertiserId=${ctx.advertiser.id}`;
    const all = await f.page(`${base}?${mine}&limit=100`, ctx.admin);
    const ids = all.items.map((q) => Number(String(q.id).slice(3)));
    expect(ids).toEqual([...ids].sort((x, y) => y - x));
    expect(all.total).toBe(all.items.length);
    const sent = await f.page(`${base}?${mine}&status=SENT`, ctx.admin);
    expect(sent.items.map((q) => q.id)).toContain(second.id);
    expect(sent.items.every((q) => q.status === 'SENT')).toBe(true);
    const ofAgency2 = await f.page(`${base}?${mine}&agencyId=2`, ctx.admin);
    expect(ofAgency2.items.every((q) => q['agencyId'] === 2)).toBe(true);
    const today = seoulDate(new Date());
    const dated = await f.page(`${base}?${mine}&from=${today}&to=${today}&limit=100`, ctx.admin);
    expect(dated.items.map((q) => q.id)).toEqual(expect.arrayContaining([first.id, second.id]));
    const page1 = await f.page(`${base}?${mine}&limit=1`, ctx.admin);
    const page2 = await f.page(`${base}?${mine}&limit=1&cursor=${page1.nextCursor}`, ctx.admin);
    expect(page2.items[0]!.id).toBe(all.items[1]!.id);
    const { quotations } = await graphqlOk<{ quotations: { total: number } }>(
      `query($f: QuotationFilter) { quotations(filter: $f, limit: 100) { total } }`,
      { f: { advertiserId: String(ctx.advertiser.id) } },
      ctx.admin,
    );
    expect(quotations.total).toBe(all.total);
    for (const query of [
      'status=PAID',
      'limit=0',
      'limit=101',
      'from=2026-02-30',
      'agencyId=x',
      'color=red',
    ])
      await f.expectError(
        a.adminCall('GET', `${base}?${query}`, ctx.admin),
        400,
        'INVALID_REQUEST',
      );
    // A cursor of another list (here the settlements') is not one of this list.
    const foreign = Buffer.from('s1:5').toString('base64url');
    await f.expectError(
      a.adminCall('GET', `${base}?cursor=${foreign}`, ctx.admin),
      400,
      'INVALID_CURSOR',
    );
  });
});

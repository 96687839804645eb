import { describe, expect, it } from 'vitest';
import { graphql } from '../support/clients.js';
import * as a from './admin-support.js';
import { base, useQuotations } from './quotation-support.js';
import * as f from './support.js';

/** Spec 4.5, S9 and section 4 (issue 12): refused quotation calls change nothing. */
describe('quotations: bad input and scope', () => {
  const ctx = useQuotations();

  it('bad input is a 400 with the catalogue code; lines at 0, 1, 1,000 and 1,001; nothing written', async () => {
    const line = ctx.body(1).lines[0]!;
    const refused: [string, unknown][] = [
      ['no lines', ctx.body(0)],
      ['1,001 lines', ctx.body(1001)],
      ['a price as a JSON number', { ...ctx.body(1), lines: [{ ...line, price: 100 }] }],
      ['a rate as a JSON number', { ...ctx.body(1), lines: [{ ...line, commissionRate: 10 }] }],
      ['a price with 3 decimals', { ...ctx.body(1), lines: [{ ...line, price: '1.005' }] }],
      ['a negative price', { ...ctx.body(1), lines: [{ ...line, price: '-1.00' }] }],
      ['a rate over 100', { ...ctx.body(1), lines: [{ ...line, commissionRate: '100.01' }] }],
      ['an empty deliverable', { ...ctx.body(1), lines: [{ ...line, deliverable: ' ' }] }],
      [
        'a total past numeric(15,2)',
        { ...ctx.body(1), lines: [{ ...line, price: '9999999999999.99' }] },
      ],
      ['an unknown partner', { ...ctx.body(1), lines: [{ ...line, partnerId: 999999999 }] }],
      ['an unknown advertiser', ctx.body(1, { advertiserId: 999999999 })],
      ['an unknown agency', ctx.body(1, { agencyId: 999999999 })],
      ['no title', { ...ctx.body(1), title: undefined }],
      ['a blank title', ctx.body(1, { title: '  ' })],
      ['a date that does not exist', ctx.body(1, { validUntil: '2027-02-30' })],
      ['a date in another format', ctx.body(1, { validUntil: '31/01/2027' })],
      ['an unknown field', ctx.body(1, { status: 'SENT' })],
      ['an unknown line field', { ...ctx.body(1), lines: [{ ...line, quantity: 2 }] }],
      ['not JSON', 'not json'],
      ['no body', undefined],
    ];
    const before = await ctx.written();
    for (const [what, payload] of refused) {
      const response = await a.adminCall('POST', base, ctx.admin, payload);
      expect(response.status, what).toBe(400);
      expect(response.body.error.code, what).toBe('INVALID_REQUEST');
    }
    expect(await ctx.written()).toEqual(before);
    const q = await ctx.create(ctx.body(1));
    const saved = await ctx.written();
    await f.expectError(
      a.adminCall('PUT', `${base}/${q.id}`, ctx.admin, ctx.body(1001)),
      400,
      'INVALID_REQUEST',
    );
    await f.expectError(
      a.adminCall('PUT', `${base}/${q.id}`, ctx.admin, {
        ...ctx.body(1),
        lines: [{ ...line, price: 5 }],
      }),
      400,
      'INVALID_REQUEST',
    );
    expect(await ctx.written()).toEqual(saved);
    const thousand = await ctx.create(ctx.body(1000));
    expect(thousand.lines).toHaveLength(1000);
    expect(thousand.supplyAmount).toBe('666666675.00');
  });

  it('scope: an agency ADMIN works on its agency’s quotations only (404); partners 403', async () => {
    const foreign = await ctx.create();
    const own = await ctx.create(ctx.body(1), ctx.agency2);
    expect(own.agencyId).toBe(2);
    await f.expectError(
      a.adminCall('POST', base, ctx.agency2, ctx.body(1, { agencyId: 1 })),
      404,
      'NOT_FOUND',
    );
    const before = await ctx.written();
    for (const [method, path, payload] of [
      ['GET', '', undefined],
      ['PUT', '', ctx.body(1)],
      ['DELETE', '', undefined],
      ['PATCH', '/status', { status: 'SENT' }],
      ['POST', '/execute', undefined],
      ['GET', '/download', undefined],
    ] as const)
      await f.expectError(
        a.adminCall(method, `${base}/${foreign.id}${path}`, ctx.agency2, payload),
        404,
        'NOT_FOUND',
      );
    await f.expectError(
      a.adminCall('PUT', `${base}/${own.id}`, ctx.agency2, ctx.body(1, { agencyId: 1 })),
      404,
      'NOT_FOUND',
    );
    expect(await ctx.written()).toEqual(before);
    const listed = await f.page(`${base}?advertiserId=${ctx.advertiser.id}&limit=100`, ctx.agency2);
    expect(listed.items.length).toBeGreaterThan(0);
    expect(listed.items.every((q) => q['agencyId'] === 2)).toBe(true);
    for (const id of ['QUO999999999', 'abc'])
      await f.expectError(a.adminCall('GET', `${base}/${id}`, ctx.admin), 404, 'NOT_FOUND');
    const partner = await f.partnerToken(ctx.partners[0]!.id);
    await f.expectError(a.adminCall('GET', base, partner), 403, 'PERMISSION_DENIED');
    await f.expectError(a.adminCall('POST', base, partner, ctx.body()), 403, 'PERMISSION_DENIED');
    await f.expectError(a.adminCall('GET', base, undefined), 401, 'UNAUTHENTICATED');
    const anonymous = await graphql(`
      {
        quotations {
          total
        }
      }
    `);
    expect(anonymous.errors?.[0]?.extensions?.['code']).toBe('UNAUTHENTICATED');
  });
});

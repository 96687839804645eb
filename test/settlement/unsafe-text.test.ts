import { beforeAll, describe, expect, it } from 'vitest';
import { graphql, rest } from '../support/clients.js';
import * as f from './support.js';

/** Issue 9, item 4: U+0000 and lone surrogates are a 400 naming the field, and write nothing. */

const TEXTS = [
  ['a NUL', 'deposit\u0000seen'],
  ['a lone surrogate', 'deposit \ud800 seen'],
] as const;

describe.each(TEXTS)('settlement text input with %s', (_label, text) => {
  const ctx = f.useCast('INDIVIDUAL');
  const email = `unsafe-${process.pid}-${Date.now()}-${_label.length}@example.com`;
  let id: string;

  beforeAll(async () => {
    id = await f.newSettlement(ctx.admin, ctx.ids);
  });

  /** What these calls could write: the settlement's rows and audit, campaigns, the partner. */
  const state = async () => ({
    rows: await f.rowCounts(ctx.db, [id]),
    audit: await f.auditOf(ctx.db, id),
    campaigns: (
      await ctx.db.query('select count(*)::int as n from campaign where advertiser_id = $1', [
        ctx.advertiserId,
      ])
    )[0]!['n'],
    partners: (
      await ctx.db.query('select count(*)::int as n from partner where email = $1', [email])
    )[0]!['n'],
  });

  it('REST: 400 INVALID_REQUEST naming the field, nothing written', async () => {
    const before = await state();
    const cases: [string, () => ReturnType<typeof f.call>, string][] = [
      [
        'PATCH status reason',
        () =>
          f.call('PATCH', f.adminPath(id, '/status'), ctx.admin, {
            status: 'SETTLEMENT_CANCELLED',
            reason: text,
          }),
        'body.reason',
      ],
      [
        'PATCH type reason',
        () =>
          f.call('PATCH', f.adminPath(id, '/type'), ctx.admin, {
            settlementType: 'DIRECT_INVOICE',
            reason: text,
          }),
        'body.reason',
      ],
      [
        'POST cancel reason',
        () => f.call('POST', f.adminPath(id, '/cancel'), ctx.admin, { reason: text }),
        'body.reason',
      ],
      [
        'POST partner request reason',
        () => f.call('POST', f.partnerPath(id, '/request'), ctx.partner, { reason: text }),
        'body.reason',
      ],
      [
        'list cursor',
        () => f.call('GET', `/api/admin/settlements?cursor=${encodeURIComponent(text)}`, ctx.admin),
        'query.cursor',
      ],
    ];
    for (const [label, send, field] of cases) {
      // A lone surrogate has no UTF-8 form, so it cannot be in a URL: the list case is NUL only.
      if (label === 'list cursor' && text.includes('\ud800')) continue;
      const response = await send();
      expect(response.status, `${label}: ${JSON.stringify(response.body)}`).toBe(400);
      expect(response.body).toEqual({
        success: false,
        error: {
          code: 'INVALID_REQUEST',
          message: expect.stringContaining(field),
          httpStatus: 400,
          retryable: false,
        },
      });
    }
    expect(await state()).toEqual(before);
    const detail = await f.expectOk(f.call('GET', f.adminPath(id), ctx.admin));
    expect(detail.status).toBe('SETTLEMENT_PENDING');
  });

  it('REST: a path parameter with a NUL is a 400 naming it, not a 500', async () => {
    const response = await rest<f.Envelope>('GET', `${f.adminPath(id)}%00`, { token: ctx.admin });
    expect(response.status, JSON.stringify(response.body)).toBe(400);
    expect(response.body.error.code).toBe('INVALID_REQUEST');
    expect(response.body.error.message).toContain('path.id');
  });

  it('GraphQL: INVALID_REQUEST naming the argument path, nothing written', async () => {
    const before = await state();
    const cases: [string, Record<string, unknown>, string][] = [
      [
        'mutation($id: ID!, $input: ChangeSettlementStatusInput!) { changeSettlementStatus(id: $id, input: $input) { id } }',
        { id, input: { status: 'SETTLEMENT_CANCELLED', reason: text } },
        'input.reason',
      ],
      [
        'mutation($id: ID!, $input: SettlementActionInput) { cancelSettlement(id: $id, input: $input) { id } }',
        { id, input: { reason: text } },
        'input.reason',
      ],
      [
        'mutation($input: CreateCampaignInput!) { createCampaign(input: $input) { id } }',
        { input: { ...ctx.ids, title: text, price: '1000.00' } },
        'input.title',
      ],
      [
        'mutation($input: CreatePartnerInput!) { createPartner(input: $input) { id } }',
        {
          input: {
            name: text,
            entityType: 'INDIVIDUAL',
            email,
            bankName: 'Kakao Bank',
            accountNumber: '3333-01-1234567',
            accountHolder: 'Holder',
          },
        },
        'input.name',
      ],
      ['query($id: ID!) { settlement(id: $id) { id } }', { id: `${id}${text}` }, 'id'],
    ];
    for (const [query, variables, field] of cases) {
      const result = await graphql(query, variables, ctx.admin);
      expect(result.data ?? null, query).toBeNull();
      const error = result.errors?.[0];
      expect(error?.extensions?.['code'], JSON.stringify(result.errors)).toBe('INVALID_REQUEST');
      expect(error?.extensions?.['httpStatus']).toBe(400);
      expect(error?.message).toContain(`${field}:`);
    }
    expect(await state()).toEqual(before);
  });
});

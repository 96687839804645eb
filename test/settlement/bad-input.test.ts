import { beforeAll, describe, expect, it } from 'vitest';
import { rest } from '../support/clients.js';
import * as f from './support.js';

/** DESIGN section 4: bad input is a clear 4xx, never a 5xx, and nothing is written. */
describe('bad input changes nothing', () => {
  const ctx = f.useCast('CORPORATE_BUSINESS');
  let id: string;
  let direct: string;

  beforeAll(async () => {
    id = await f.newSettlement(ctx.admin, ctx.ids);
    direct = await f.newSettlement(ctx.admin, {
      ...ctx.ids,
      settlementType: 'DIRECT_INVOICE',
    });
  });

  const raw = (
    method: string,
    path: string,
    token: string,
    body: string,
    type = 'application/json',
  ) => rest<f.Envelope>(method, path, { token, body, headers: { 'content-type': type } });

  const cases: [string, () => Promise<{ status: number; body: f.Envelope }>, string][] = [
    [
      'PATCH status without a body',
      () => f.call('PATCH', f.adminPath(id, '/status'), ctx.admin),
      'INVALID_REQUEST',
    ],
    [
      'PATCH status with an unknown status',
      () => f.call('PATCH', f.adminPath(id, '/status'), ctx.admin, { status: 'PAID' }),
      'INVALID_REQUEST',
    ],
    [
      'PATCH status with a number',
      () => f.call('PATCH', f.adminPath(id, '/status'), ctx.admin, { status: 3 }),
      'INVALID_REQUEST',
    ],
    [
      'PATCH status with an extra field',
      () =>
        f.call('PATCH', f.adminPath(id, '/status'), ctx.admin, {
          status: 'SETTLEMENT_CANCELLED',
          force: true,
        }),
      'INVALID_REQUEST',
    ],
    [
      'PATCH status with an array body',
      () =>
        f.call('PATCH', f.adminPath(id, '/status'), ctx.admin, [
          { status: 'SETTLEMENT_CANCELLED' },
        ]),
      'INVALID_REQUEST',
    ],
    [
      'PATCH status with a string body',
      () => raw('PATCH', f.adminPath(id, '/status'), ctx.admin, '"SETTLEMENT_CANCELLED"'),
      'INVALID_REQUEST',
    ],
    [
      'PATCH status with broken JSON',
      () => raw('PATCH', f.adminPath(id, '/status'), ctx.admin, '{"status": '),
      'INVALID_REQUEST',
    ],
    [
      'PATCH status as text/plain',
      () =>
        raw(
          'PATCH',
          f.adminPath(id, '/status'),
          ctx.admin,
          'status=SETTLEMENT_CANCELLED',
          'text/plain',
        ),
      'INVALID_REQUEST',
    ],
    [
      'PATCH status with a 1001-character reason',
      () =>
        f.call('PATCH', f.adminPath(id, '/status'), ctx.admin, {
          status: 'SETTLEMENT_CANCELLED',
          reason: 'x'.repeat(1001),
        }),
      'INVALID_REQUEST',
    ],
    [
      'PATCH type without settlementType',
      () => f.call('PATCH', f.adminPath(id, '/type'), ctx.admin, {}),
      'INVALID_REQUEST',
    ],
    [
      'PATCH type with an unknown type',
      () => f.call('PATCH', f.adminPath(id, '/type'), ctx.admin, { settlementType: 'MONTHLY' }),
      'INVALID_REQUEST',
    ],
    [
      'POST cancel with an unknown field',
      () => f.call('POST', f.adminPath(id, '/cancel'), ctx.admin, { why: 'x' }),
      'INVALID_REQUEST',
    ],
    [
      'POST cancel with a numeric reason',
      () => f.call('POST', f.adminPath(id, '/cancel'), ctx.admin, { reason: 5 }),
      'INVALID_REQUEST',
    ],
    [
      'POST complete with a 101-character transactionId',
      () =>
        f.call('POST', f.adminPath(id, '/complete'), ctx.admin, { transactionId: 'x'.repeat(101) }),
      'INVALID_REQUEST',
    ],
    [
      'POST request with an unknown field',
      () => f.call('POST', f.partnerPath(id, '/request'), ctx.partner, { amount: '1.00' }),
      'INVALID_REQUEST',
    ],
    [
      'POST invoice-paid with a list body',
      () => f.call('POST', f.partnerPath(direct, '/invoice-paid'), ctx.partner, [1]),
      'INVALID_REQUEST',
    ],
    [
      'list with limit 0',
      () => f.call('GET', '/api/admin/settlements?limit=0', ctx.admin),
      'INVALID_REQUEST',
    ],
    [
      'list with limit 101',
      () => f.call('GET', '/api/admin/settlements?limit=101', ctx.admin),
      'INVALID_REQUEST',
    ],
    [
      'list with limit abc',
      () => f.call('GET', '/api/admin/settlements?limit=abc', ctx.admin),
      'INVALID_REQUEST',
    ],
    [
      'list with an unknown status',
      () => f.call('GET', '/api/admin/settlements?status=DONE', ctx.admin),
      'INVALID_REQUEST',
    ],
    [
      'list with an unknown filter',
      () => f.call('GET', '/api/admin/settlements?partner=1', ctx.admin),
      'INVALID_REQUEST',
    ],
    [
      'list with a repeated filter',
      () =>
        f.call(
          'GET',
          '/api/admin/settlements?status=SETTLEMENT_PENDING&status=SETTLEMENT_CANCELLED',
          ctx.admin,
        ),
      'INVALID_REQUEST',
    ],
    [
      'list with a bad partnerId',
      () => f.call('GET', '/api/admin/settlements?partnerId=abc', ctx.admin),
      'INVALID_REQUEST',
    ],
    [
      'list with a bad campaignId',
      () => f.call('GET', '/api/admin/settlements?campaignId=1', ctx.admin),
      'INVALID_REQUEST',
    ],
    [
      'list with a bad date',
      () => f.call('GET', '/api/admin/settlements?from=2026-02-30', ctx.admin),
      'INVALID_REQUEST',
    ],
    [
      'list with a date-time without offset',
      () => f.call('GET', '/api/admin/settlements?to=2026-02-03T10:00:00', ctx.admin),
      'INVALID_REQUEST',
    ],
    [
      'list with a forged cursor',
      () => f.call('GET', '/api/admin/settlements?cursor=czE6MA', ctx.admin),
      'INVALID_CURSOR',
    ],
    [
      'list with a garbage cursor',
      () => f.call('GET', '/api/partner/settlements?cursor=%%%', ctx.partner),
      'INVALID_CURSOR',
    ],
    [
      'partner list with an admin filter',
      () => f.call('GET', '/api/partner/settlements?partnerId=1', ctx.partner),
      'INVALID_REQUEST',
    ],
  ];

  it.each(cases)('%s → 400', async (_label, send, code) => {
    const before = await f.rowCounts(ctx.db, [id, direct]);
    const response = await send();
    expect(response.status, JSON.stringify(response.body)).toBe(400);
    expect(response.body).toEqual({
      success: false,
      error: { code, message: expect.any(String), httpStatus: 400, retryable: false },
    });
    expect(await f.rowCounts(ctx.db, [id, direct])).toEqual(before);
  });

  it.each([
    ['an unknown settlement', f.adminPath('SET999999999')],
    ['a malformed id', f.adminPath('DROP%20TABLE')],
    ['an unknown path', '/api/admin/settlements/SET1/approve'],
  ])('%s → 404', async (_label, path) => {
    const before = await f.rowCounts(ctx.db, [id, direct]);
    await f.expectError(f.call('GET', path, ctx.admin), 404, 'NOT_FOUND');
    await f.expectError(f.call('POST', `${path}/cancel`, ctx.admin), 404, 'NOT_FOUND');
    expect(await f.rowCounts(ctx.db, [id, direct])).toEqual(before);
  });

  it('the settlement is untouched after all of it', async () => {
    const detail = await f.expectOk(f.call('GET', f.adminPath(id), ctx.admin));
    expect(detail.status).toBe('SETTLEMENT_PENDING');
    const rows = await ctx.db.query('select version from settlement where id = $1', [id]);
    expect(rows[0]!['version']).toBe(1);
  });
});

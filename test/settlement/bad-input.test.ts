import { beforeAll, describe, expect, it } from 'vitest';
import { rest } from '../support/clients.js';
import * as f from './support.js';

/** Admin list queries refused as INVALID_REQUEST, by what is wrong with them. */
const BAD_LIST_QUERIES: Record<string, string> = {
  'limit 0': 'limit=0',
  'limit 101': 'limit=101',
  'limit abc': 'limit=abc',
  'an unknown status': 'status=DONE',
  'an unknown filter': 'partner=1',
  'a repeated filter': 'status=SETTLEMENT_PENDING&status=SETTLEMENT_CANCELLED',
  'a bad partnerId': 'partnerId=abc',
  'a bad campaignId': 'campaignId=1',
  'a bad date': 'from=2026-02-30',
  'a date-time without offset': 'to=2026-02-03T10:00:00',
};

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

  /** An admin action on the held settlement with `body` as JSON. */
  const asAdmin = (method: string, action: string, body?: unknown) => () =>
    f.call(method, f.adminPath(id, action), ctx.admin, body);
  /** The admin settlement list with `query`. */
  const adminList = (query: string) => () =>
    f.call('GET', `/api/admin/settlements?${query}`, ctx.admin);

  const cases: (readonly [string, () => Promise<{ status: number; body: f.Envelope }>, string])[] =
    [
      ['PATCH status without a body', asAdmin('PATCH', '/status'), 'INVALID_REQUEST'],
      [
        'PATCH status with an unknown status',
        asAdmin('PATCH', '/status', { status: 'PAID' }),
        'INVALID_REQUEST',
      ],
      ['PATCH status with a number', asAdmin('PATCH', '/status', { status: 3 }), 'INVALID_REQUEST'],
      [
        'PATCH status with an extra field',
        asAdmin('PATCH', '/status', {
          status: 'SETTLEMENT_CANCELLED',
          force: true,
        }),
        'INVALID_REQUEST',
      ],
      [
        'PATCH status with an array body',
        asAdmin('PATCH', '/status', [{ status: 'SETTLEMENT_CANCELLED' }]),
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
        asAdmin('PATCH', '/status', {
          status: 'SETTLEMENT_CANCELLED',
          reason: 'x'.repeat(1001),
        }),
        'INVALID_REQUEST',
      ],
      ['PATCH type without settlementType', asAdmin('PATCH', '/type', {}), 'INVALID_REQUEST'],
      [
        'PATCH type with an unknown type',
        asAdmin('PATCH', '/type', { settlementType: 'MONTHLY' }),
        'INVALID_REQUEST',
      ],
      [
        'POST cancel with an unknown field',
        asAdmin('POST', '/cancel', { why: 'x' }),
        'INVALID_REQUEST',
      ],
      [
        'POST cancel with a numeric reason',
        asAdmin('POST', '/cancel', { reason: 5 }),
        'INVALID_REQUEST',
      ],
      [
        'POST complete with a 101-character transactionId',
        asAdmin('POST', '/complete', { transactionId: 'x'.repeat(101) }),
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
      ...Object.entries(BAD_LIST_QUERIES).map(
        ([what, query]) => [`list with ${what}`, adminList(query), 'INVALID_REQUEST'] as const,
      ),
      ['list with a forged cursor', adminList('cursor=czE6MA'), 'INVALID_CURSOR'],
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

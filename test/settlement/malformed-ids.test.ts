import { beforeAll, describe, expect, it } from 'vitest';
import { cli } from '../support/cli.js';
import { rest } from '../support/clients.js';

/**
 * Issue 21 item 1 on REST: an id that no id can be (past 2^53, negative, fractional, text) in a
 * quotation body (generate, create, update) or a list filter is the caller's 400
 * INVALID_REQUEST naming the field, not retryable; before, a partnerId of 2^53 answered 500.
 */
type Refusal = { success: boolean; error: { code: string; message: string; retryable: boolean } };

const line = { partnerId: 1, deliverable: 'Reel', price: '1000.00' };
const body = (extra: Record<string, unknown>, lineExtra: Record<string, unknown> = {}) => ({
  advertiserId: 1,
  title: 'Malformed ids',
  validUntil: '2099-12-31',
  lines: [{ ...line, ...lineExtra }],
  ...extra,
});

const BAD_IDS: unknown[] = [2 ** 53, 2 ** 53 + 2, -(2 ** 53), 1e21, 1.5, 0, -1, 'abc'];

let admin: string;
beforeAll(async () => {
  admin = await cli('auth:token', '--role', 'SUPER_ADMIN');
});

describe('malformed ids in REST bodies and filters', () => {
  const paths: [string, string][] = [
    ['POST', '/api/admin/quotation/generate'],
    ['POST', '/api/admin/quotation'],
    ['PUT', '/api/admin/quotation/QUO999999999'],
  ];
  const places: [string, (bad: unknown) => Record<string, unknown>][] = [
    ['advertiserId', (bad) => body({ advertiserId: bad })],
    ['agencyId', (bad) => body({ agencyId: bad })],
    ['partnerId', (bad) => body({}, { partnerId: bad })],
  ];

  it.each(paths)('%s %s: 400 INVALID_REQUEST naming the field, never 5xx', async (method, path) => {
    const problems: string[] = [];
    for (const [field, make] of places)
      for (const bad of BAD_IDS) {
        const answer = await rest<Refusal>(method, path, {
          token: admin,
          body: make(bad),
          headers: { 'idempotency-key': crypto.randomUUID() },
        });
        const error = answer.body.error;
        if (answer.status !== 400 || error?.code !== 'INVALID_REQUEST' || error.retryable)
          problems.push(`${field}=${String(bad)}: ${answer.status} ${JSON.stringify(answer.body)}`);
        else if (!error.message.includes(field))
          problems.push(`${field}=${String(bad)}: the message names no field: ${error.message}`);
      }
    expect(problems).toEqual([]);
  });

  it.each([
    ['/api/admin/settlements', 'partnerId'],
    ['/api/admin/settlements', 'agencyId'],
    ['/api/admin/quotation', 'advertiserId'],
    ['/api/admin/quotation', 'agencyId'],
  ])('GET %s?%s= an id out of range: 400 naming it', async (path, field) => {
    for (const bad of ['99999999999999999999', '-1', 'abc', '1.5']) {
      const answer = await rest<Refusal>('GET', `${path}?${field}=${bad}`, { token: admin });
      expect(answer.status, JSON.stringify(answer.body)).toBe(400);
      expect(answer.body.error.code).toBe('INVALID_REQUEST');
      expect(answer.body.error.message).toContain(field);
    }
  });
});

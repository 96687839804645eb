import { beforeAll, describe, expect, it } from 'vitest';
import { rawRequest } from '../support/raw-http.js';
import {
  invalidRequestNaming,
  unlimitedTenant,
  tenantState,
  useLensDatabase,
  waitForStatus,
} from './engine-support.js';
import { OPERATIONS } from './lens-client.js';

/**
 * Issue 9, item 7: two Idempotency-Key lines in one request were joined by Node into "a, b" and
 * executed under that key. Which key the client meant is unknowable, so it is a 400 before
 * anything else is looked at (body, credential, rate limit, credits).
 */

/** A valid body for each operation. */
const BODY: Record<string, unknown> = {
  '/accounts/stories': { accountRefs: [{ handle: 'dup.header' }] },
  '/accounts/search': { search: 'dup' },
};

describe('a duplicated Idempotency-Key header', () => {
  const sql = useLensDatabase();
  let key: string;
  let tenantId: string;

  beforeAll(async () => ({ key, tenantId } = await unlimitedTenant(sql())));

  it('is a 400 INVALID_REQUEST naming the header on every lens operation path', async () => {
    const before = await tenantState(sql(), tenantId);
    for (const { path } of Object.values(OPERATIONS)) {
      for (const [first, second] of [
        ['dup-one', 'dup-two'],
        ['same-key', 'same-key'],
      ]) {
        const response = await rawRequest(
          'POST',
          `/api/lens/v1${path}`,
          [
            ['Authorization', `Bearer ${key}`],
            ['Idempotency-Key', first!],
            ['Idempotency-Key', second!],
          ],
          BODY[path] ?? { accountRef: { handle: 'dup.header' } },
        );
        expect(response.status, `${path} ${JSON.stringify(response.body)}`).toBe(400);
        expect(response.body).toEqual(invalidRequestNaming('Idempotency-Key'));
      }
    }
    expect(await tenantState(sql(), tenantId)).toEqual(before);
    expect(before.operations).toBe(0);
  });

  it('is checked before the body and the credential', async () => {
    const response = await rawRequest(
      'POST',
      '/api/lens/v1/accounts/profile',
      [
        ['Idempotency-Key', 'a'],
        ['idempotency-key', 'b'],
      ],
      { nope: true },
    );
    expect(response.status).toBe(400);
    expect((response.body!['error'] as { message: string }).message).toContain('Idempotency-Key');
  });

  it('one header line is still accepted (the raw client itself is sound)', async () => {
    const response = await rawRequest(
      'POST',
      '/api/lens/v1/accounts/search',
      [
        ['Authorization', `Bearer ${key}`],
        ['Idempotency-Key', `single-${Date.now()}`],
      ],
      { search: 'single' },
    );
    const envelope = response.body?.['data'] as { operationId: string } | undefined;
    expect(envelope?.operationId, JSON.stringify(response.body)).toBeDefined();
    expect(await waitForStatus(key, envelope!.operationId, ['SUCCEEDED', 'FAILED'])).toMatchObject({
      status: 'SUCCEEDED',
    });
  });
});

import { signWebhook } from '@campaign/platform';
import { describe, expect, it } from 'vitest';
import { fixture } from './fixtures/load.js';
import { readTaxInvoiceWebhook } from './webhook-event.js';

const SECRET = 'webhook-reader-test-secret';
const NOW = 1_796_086_803;
const raw = (name: string) => JSON.stringify(fixture(name));
const read = (body: string, header = signWebhook(SECRET, body, NOW), now = NOW) =>
  readTaxInvoiceWebhook(body, header, SECRET, now);

describe('readTaxInvoiceWebhook', () => {
  it('reads the documented SUCCESS and FAILURE bodies', () => {
    expect(read(raw('webhook_success'))).toEqual({ ok: true, event: fixture('webhook_success') });
    expect(read(raw('webhook_cancellation'))).toEqual({
      ok: true,
      event: fixture('webhook_cancellation'),
    });
    expect(read(raw('webhook_failure'))).toMatchObject({
      ok: true,
      event: { status: 'FAILURE', failureCode: 'REJECTED_BY_PARTNER' },
    });
    const cancelled = JSON.stringify({
      eventId: 'e',
      issuanceKey: 'SET1-R1',
      kind: 'REVERSE',
      status: 'CANCELLED',
      occurredAt: '2026-12-01T01:00:00+09:00',
    });
    expect(read(cancelled).ok).toBe(true);
    expect(
      readTaxInvoiceWebhook(
        Buffer.from(raw('webhook_success')),
        signWebhook(SECRET, raw('webhook_success'), NOW),
        SECRET,
        NOW,
      ).ok,
    ).toBe(true);
  });

  it('is 401 for a missing, wrong or stale signature, before reading the body', () => {
    const body = raw('webhook_success');
    expect(read(body, '')).toEqual({ ok: false, httpStatus: 401, reason: 'MISSING' });
    expect(read(body, signWebhook('another-secret-value', body, NOW))).toEqual({
      ok: false,
      httpStatus: 401,
      reason: 'MISMATCH',
    });
    expect(read(body, signWebhook(SECRET, body, NOW - 301))).toEqual({
      ok: false,
      httpStatus: 401,
      reason: 'TOO_OLD',
    });
    expect(read(body, signWebhook(SECRET, body, NOW + 301))).toEqual({
      ok: false,
      httpStatus: 401,
      reason: 'TOO_NEW',
    });
    expect(read('not json', 't=1,v1=00')).toMatchObject({ httpStatus: 401, reason: 'MALFORMED' });
  });

  it('is 400 for a signed body that is not the documented one', () => {
    const success = fixture<Record<string, unknown>>('webhook_success');
    const { taxInvoiceNumber: _n, ...withoutNumber } = success;
    for (const body of [
      'not json',
      JSON.stringify([]),
      JSON.stringify({ ...success, extra: 1 }),
      JSON.stringify({ ...success, status: 'DONE' }),
      JSON.stringify({ ...success, kind: 'SIDEWAYS' }),
      JSON.stringify({ ...success, occurredAt: 'yesterday' }),
      JSON.stringify(withoutNumber),
      JSON.stringify({ ...fixture<object>('webhook_failure'), failureCode: undefined }),
    ]) {
      expect(read(body), body).toMatchObject({ ok: false, httpStatus: 400 });
    }
    expect(read(JSON.stringify(withoutNumber))).toMatchObject({
      reason: expect.stringContaining('taxInvoiceNumber'),
    });
  });
});

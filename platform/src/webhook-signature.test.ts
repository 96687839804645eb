import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  signWebhook,
  verifyWebhookSignature,
  WEBHOOK_TOLERANCE_SECONDS,
} from './webhook-signature.js';

const SECRET = 'test-webhook-secret-0123456789';
const BODY = '{"eventId":"e1","issuanceKey":"SET1-F1","kind":"FORWARD","status":"SUCCESS"}';
const NOW = 1_800_000_000;

describe('webhook signature', () => {
  it('is t=<seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">', () => {
    const expected = createHmac('sha256', SECRET).update(`${NOW}.${BODY}`).digest('hex');
    expect(signWebhook(SECRET, BODY, NOW)).toBe(`t=${NOW},v1=${expected}`);
    expect(signWebhook(SECRET, Buffer.from(BODY), NOW)).toBe(`t=${NOW},v1=${expected}`);
  });

  it('verifies a fresh signature and gives its time', () => {
    const header = signWebhook(SECRET, BODY, NOW);
    expect(verifyWebhookSignature(SECRET, BODY, header, { now: NOW })).toEqual({
      ok: true,
      timestamp: NOW,
    });
    expect(verifyWebhookSignature(SECRET, Buffer.from(BODY), header, { now: NOW }).ok).toBe(true);
  });

  it('accepts exactly 300 s old and 300 s ahead, refuses 301 s either way', () => {
    const at = (t: number) =>
      verifyWebhookSignature(SECRET, BODY, signWebhook(SECRET, BODY, t), { now: NOW });
    expect(WEBHOOK_TOLERANCE_SECONDS).toBe(300);
    expect(at(NOW - 300)).toEqual({ ok: true, timestamp: NOW - 300 });
    expect(at(NOW + 300)).toEqual({ ok: true, timestamp: NOW + 300 });
    expect(at(NOW - 301)).toEqual({ ok: false, reason: 'TOO_OLD' });
    expect(at(NOW + 301)).toEqual({ ok: false, reason: 'TOO_NEW' });
  });

  it('refuses a missing or empty header', () => {
    expect(verifyWebhookSignature(SECRET, BODY, undefined, { now: NOW })).toEqual({
      ok: false,
      reason: 'MISSING',
    });
    expect(verifyWebhookSignature(SECRET, BODY, '  ', { now: NOW }).ok).toBe(false);
    expect(verifyWebhookSignature(SECRET, BODY, [], { now: NOW })).toEqual({
      ok: false,
      reason: 'MISSING',
    });
  });

  it('refuses a wrong secret, a changed body and a changed time', () => {
    const header = signWebhook(SECRET, BODY, NOW);
    const mismatch = { ok: false, reason: 'MISMATCH' };
    expect(verifyWebhookSignature('another-secret-0123456789', BODY, header, { now: NOW })).toEqual(
      mismatch,
    );
    expect(verifyWebhookSignature(SECRET, `${BODY} `, header, { now: NOW })).toEqual(mismatch);
    const moved = header.replace(`t=${NOW}`, `t=${NOW - 1}`);
    expect(verifyWebhookSignature(SECRET, BODY, moved, { now: NOW })).toEqual(mismatch);
  });

  it('refuses malformed headers', () => {
    const v1 = signWebhook(SECRET, BODY, NOW).split(',')[1];
    for (const header of [
      `v1=${'a'.repeat(64)}`,
      `t=${NOW}`,
      `t=${NOW},v1=xyz`,
      `t=${NOW},v1=${'a'.repeat(63)}`,
      `t=abc,${v1}`,
      `t=${NOW},t=${NOW},${v1}`,
      `t=${NOW}=1,${v1}`,
      `t=12345678901,${v1}`,
    ]) {
      expect(verifyWebhookSignature(SECRET, BODY, header, { now: NOW }), header).toEqual({
        ok: false,
        reason: 'MALFORMED',
      });
    }
    const header = signWebhook(SECRET, BODY, NOW);
    expect(verifyWebhookSignature(SECRET, BODY, [header], { now: NOW }).ok).toBe(true);
    expect(verifyWebhookSignature(SECRET, BODY, [header, header], { now: NOW })).toEqual({
      ok: false,
      reason: 'MALFORMED',
    });
  });

  it('accepts any matching v1 and any of several secrets (rotation), ignoring other schemes', () => {
    const good = signWebhook(SECRET, BODY, NOW);
    const other = signWebhook('old-secret-0123456789', BODY, NOW).split(',')[1];
    expect(verifyWebhookSignature(SECRET, BODY, `${good},${other}`, { now: NOW }).ok).toBe(true);
    expect(
      verifyWebhookSignature(SECRET, BODY, `${other},v0=zz,${good.split(',')[1]},t=${NOW}`, {
        now: NOW,
      }).ok,
    ).toBe(true);
    expect(
      verifyWebhookSignature(['old-secret-0123456789', SECRET], BODY, good, { now: NOW }).ok,
    ).toBe(true);
  });
});

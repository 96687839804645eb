import { createTransport } from 'nodemailer';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startMailSink, type RunningMailSink } from './index.js';

/** The sink against a real SMTP client: what is stored, and the HTTP API over it. */

let sink: RunningMailSink;

beforeAll(async () => {
  sink = await startMailSink({ host: '127.0.0.1', smtpPort: 0, httpPort: 0 });
});
afterAll(() => sink.close());
beforeEach(async () => {
  expect((await fetch(`${sink.url}/messages`, { method: 'DELETE' })).status).toBe(204);
});

async function send(mail: Record<string, unknown>, auth?: { user: string; pass: string }) {
  const transport = createTransport({ ...sink.smtp, secure: false, ...(auth ? { auth } : {}) });
  try {
    return await transport.sendMail({ from: 'Platform <noreply@campaign.test>', ...mail });
  } finally {
    transport.close();
  }
}

async function list(query = ''): Promise<Record<string, unknown>[]> {
  const response = await fetch(`${sink.url}/messages${query}`);
  expect(response.status).toBe(200);
  return (await response.json()) as Record<string, unknown>[];
}

describe('mail sink', () => {
  it('stores a message in the documented shape', async () => {
    await send({
      to: '"광고주" <Advertiser@Example.com>',
      cc: ['ops@campaign.test'],
      subject: '입금 요청 SET1',
      text: 'Please pay.',
      html: '<p>Please pay.</p>',
      messageId: '<SET1.v3.PAYMENT_REQUEST_ADVERTISER@campaign.test>',
      headers: { 'X-Event': 'PAYMENT_REQUEST_ADVERTISER', 'X-Settlement-Id': 'SET1' },
    });
    const [message, ...rest] = await list();
    expect(rest).toEqual([]);
    expect(Object.keys(message!).sort()).toEqual(
      ['messageId', 'from', 'to', 'subject', 'text', 'html', 'headers', 'receivedAt'].sort(),
    );
    expect(message).toMatchObject({
      messageId: '<SET1.v3.PAYMENT_REQUEST_ADVERTISER@campaign.test>',
      from: 'noreply@campaign.test',
      // Domains come back lower-cased (IDN handling); the local part is kept as sent.
      to: ['Advertiser@example.com', 'ops@campaign.test'],
      subject: '입금 요청 SET1',
      text: 'Please pay.',
      html: '<p>Please pay.</p>',
    });
    const headers = message!.headers as Record<string, unknown>;
    expect(headers['x-event']).toBe('PAYMENT_REQUEST_ADVERTISER');
    expect(headers['x-settlement-id']).toBe('SET1');
    expect(headers['subject']).toBe('입금 요청 SET1');
    expect(headers['message-id']).toBe('<SET1.v3.PAYMENT_REQUEST_ADVERTISER@campaign.test>');
    for (const [key, value] of Object.entries(headers)) {
      expect(key).toBe(key.toLowerCase());
      expect(typeof value).toBe('string');
    }
    expect(message!.receivedAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
  });

  it('lists newest first, filters by recipient ignoring case, and empties', async () => {
    await send({ to: 'a@example.com', subject: 'one', text: '1' });
    await send({ to: 'b@example.com', cc: 'A@example.com', subject: 'two', text: '2' });
    await send({ to: 'c@example.com', subject: 'three', text: '3' });
    expect((await list()).map((m) => m.subject)).toEqual(['three', 'two', 'one']);
    expect((await list('?to=A@EXAMPLE.COM')).map((m) => m.subject)).toEqual(['two', 'one']);
    expect(await list('?to=nobody@example.com')).toEqual([]);
    expect(sink.messages()).toHaveLength(3);
    expect((await fetch(`${sink.url}/messages`, { method: 'DELETE' })).status).toBe(204);
    expect(await list()).toEqual([]);
  });

  it('accepts SMTP AUTH with any credentials and text-only mail', async () => {
    await send({ to: 'a@example.com', subject: 'auth', text: 'hi' }, { user: 'u', pass: 'p' });
    const [message] = await list();
    expect(message).toMatchObject({ subject: 'auth', text: 'hi', html: null });
  });

  it('refuses the next messages with a temporary failure on request', async () => {
    await fetch(`${sink.url}/_sim/fail-next`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ count: 1 }),
    });
    await expect(send({ to: 'a@example.com', subject: 'lost', text: 'x' })).rejects.toMatchObject({
      responseCode: 451,
    });
    await send({ to: 'a@example.com', subject: 'kept', text: 'x' });
    expect((await list()).map((m) => m.subject)).toEqual(['kept']);
  });

  it('answers the probes', async () => {
    expect((await fetch(`${sink.url}/healthz`)).status).toBe(200);
  });
});

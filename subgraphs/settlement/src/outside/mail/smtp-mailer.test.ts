import { createRequire } from 'node:module';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  startMailSink,
  type RunningMailSink,
} from '../../../../../providers/src/mail-sink/index.js';
import { freePort } from '../../../../../stack/src/free-port.js';
import { MailDeliveryError, messageIdFor } from './mailer.port.js';
import { SmtpMailer } from './smtp-mailer.js';

/** The SMTP adapter against the simulated mail sink (started here on free ports). */

let sink: RunningMailSink;
let mailer: SmtpMailer;

beforeAll(async () => {
  sink = await startMailSink({ host: '127.0.0.1', smtpPort: 0, httpPort: 0 });
  mailer = new SmtpMailer({
    ...sink.smtp,
    secure: false,
    user: 'platform',
    pass: 'secret',
    from: 'Campaign Platform <no-reply@campaign-platform.test>',
    timeoutMs: 3000,
  });
});
afterAll(async () => {
  await mailer.close();
  await sink.close();
});
beforeEach(async () => {
  await fetch(`${sink.url}/messages`, { method: 'DELETE' });
});

describe('SmtpMailer', () => {
  it('sends to, cc, subject, text, html, headers and the Message-ID', async () => {
    const messageId = mailer.messageIdFor('SET3:v4:PAYMENT_REQUEST_ADVERTISER');
    const sent = await mailer.send({
      to: ['"광고주" <ads@example.com>'],
      cc: ['ops@example.com'],
      subject: '[SET3] 입금 요청',
      text: '1,100,000원을 입금해 주세요.',
      html: '<p>1,100,000원을 입금해 주세요.</p>',
      headers: { 'X-Event': 'PAYMENT_REQUEST_ADVERTISER', 'X-Settlement-Id': 'SET3' },
      messageId,
    });
    expect(sent).toEqual({
      messageId,
      accepted: ['ads@example.com', 'ops@example.com'],
      rejected: [],
    });
    const [message] = (await (
      await fetch(`${sink.url}/messages?to=ADS@example.com`)
    ).json()) as Record<string, unknown>[];
    expect(message).toMatchObject({
      messageId,
      from: 'no-reply@campaign-platform.test',
      to: ['ads@example.com', 'ops@example.com'],
      subject: '[SET3] 입금 요청',
      text: '1,100,000원을 입금해 주세요.',
      html: '<p>1,100,000원을 입금해 주세요.</p>',
    });
    expect(message!.headers).toMatchObject({
      'x-event': 'PAYMENT_REQUEST_ADVERTISER',
      'x-settlement-id': 'SET3',
      'message-id': messageId,
    });
  });

  it('loads nodemailer with the first message, not when the mailer is made (issue 27)', async () => {
    // The CJS module cache is the process's: forget nodemailer, so that loading it shows.
    const cache = createRequire(import.meta.url).cache;
    const nodemailerModules = () => Object.keys(cache).filter((f) => f.includes('/nodemailer/'));
    for (const file of nodemailerModules()) delete cache[file];
    const lazy = new SmtpMailer({
      ...sink.smtp,
      secure: false,
      from: 'no-reply@campaign-platform.test',
    });
    try {
      expect(nodemailerModules()).toEqual([]);
      const sent = await lazy.send({
        to: 'first@example.com',
        subject: 'first',
        text: 'first',
        messageId: lazy.messageIdFor('first'),
      });
      expect(sent.accepted).toEqual(['first@example.com']);
      expect(nodemailerModules()).not.toEqual([]);
    } finally {
      await lazy.close();
    }
  });

  it('keeps one Message-ID per event however often it is sent', async () => {
    const mail = {
      to: 'partner@example.com',
      subject: 'payout',
      text: 'done',
      messageId: mailer.messageIdFor('SET9:v7:PAYOUT_COMPLETED_PARTNER'),
    };
    await mailer.send(mail);
    await mailer.send(mail);
    const ids = sink.messages().map((m) => m.messageId);
    expect(ids).toEqual([mail.messageId, mail.messageId]);
    expect(mail.messageId).toMatch(
      /^<SET9\.v7\.PAYOUT_COMPLETED_PARTNER\.[0-9a-f]{10}@campaign-platform\.test>$/,
    );
  });

  it('reports a temporary refusal as retryable, with the SMTP code', async () => {
    await fetch(`${sink.url}/_sim/fail-next`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"count": 1}',
    });
    const error = await mailer
      .send({ to: 'a@example.com', subject: 's', text: 't', messageId: '<x@y>' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MailDeliveryError);
    expect(error).toMatchObject({ system: 'MAIL', retryable: true, responseCode: 451 });
  });

  it('reports no server as retryable and a message without recipients as not', async () => {
    const nowhere = new SmtpMailer({
      host: '127.0.0.1',
      port: await freePort(),
      secure: false,
      from: 'a@b.test',
      timeoutMs: 2000,
    });
    try {
      const error = await nowhere
        .send({ to: 'a@example.com', subject: 's', text: 't', messageId: '<x@y>' })
        .catch((e: unknown) => e);
      expect(error).toMatchObject({ retryable: true, responseCode: null });
    } finally {
      await nowhere.close();
    }
    const error = await mailer
      .send({ to: [], subject: 's', text: 't', messageId: '<x@y>' })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ retryable: false });
  });
});

describe('messageIdFor', () => {
  it('is stable, readable and a valid msg-id', () => {
    const id = messageIdFor('SET1:v2:SETTLEMENT_STATUS_CHANGED', 'example.com');
    expect(id).toBe(messageIdFor('SET1:v2:SETTLEMENT_STATUS_CHANGED', 'example.com'));
    expect(id).toMatch(/^<SET1\.v2\.SETTLEMENT_STATUS_CHANGED\.[0-9a-f]{10}@example\.com>$/);
    expect(messageIdFor('SET1:v2:X', 'example.com')).not.toBe(
      messageIdFor('SET1.v2.X', 'example.com'),
    );
  });
});

import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { graphqlOk, stack } from '../support/clients.js';
import { chatThread, eventually, mailsFor, only, type SinkMail } from '../support/sinks.js';
import * as f from './support.js';
import { untilInvoice } from './tax-invoice-support.js';

/**
 * Issue 11 (DESIGN S10): every notification of spec section 6 reaches its recipient, end to end.
 * Both settlement types are walked through REST; each e-mail is read from the mail sink by
 * recipient and event, each chat message from the chat server by thread. Addresses are this
 * file's own (a UUID in each), so other files' messages never count.
 */
const sink = () => stack().mailSink!;
const chat = () => stack().chat!;
const tag = randomUUID().slice(0, 8);
const address = (who: string) => `${who}-${tag}@notify.example`;

let admin: string;

async function advertiser(email: string): Promise<number> {
  const { createAdvertiser } = await graphqlOk<{ createAdvertiser: { id: number } }>(
    `mutation($input: CreateAdvertiserInput!) { createAdvertiser(input: $input) { id } }`,
    { input: { name: `Glow ${tag}`, email } },
    admin,
  );
  return createAdvertiser.id;
}

async function partner(entityType: f.EntityType, email: string, name: string) {
  const id = await f.createPartner(admin, entityType, {
    name,
    email,
    bankName: 'Kakao Bank',
    accountNumber: '3333-01-1234567',
    accountHolder: 'Park Minseo',
  });
  return { id, token: await f.partnerToken(id) };
}

/** Headers and Message-ID of a notification e-mail of settlement `id` (DESIGN.md section 5). */
function expectNotification(mail: SinkMail, id: string, event: string, to: string): void {
  expect(mail.to).toEqual([to]);
  expect(mail.headers['x-event']).toBe(event);
  expect(mail.headers['x-settlement-id']).toBe(id);
  expect(mail.messageId).toMatch(new RegExp(`^<${id}\\.v\\d+\\.${event}\\.[0-9a-f]{10}@`));
  expect(mail.html).toMatch(/^<!doctype html>/);
}

/** Each Message-ID once: no event reached its recipient twice. */
const messageIdsOnce = (mails: SinkMail[]) =>
  expect(new Set(mails.map((m) => m.messageId)).size).toBe(mails.length);

/** The mails to `to`: exactly one per event of `events`, each Message-ID once. */
async function inbox(to: string, events: string[]): Promise<SinkMail[]> {
  const mails = await mailsFor(sink(), to, events);
  expect(mails).toHaveLength(events.length);
  messageIdsOnce(mails);
  return mails;
}

/** The one `event` mail of settlement `id` among `mails`, its headers checked. */
function notice(mails: SinkMail[], id: string, event: string, to: string): SinkMail {
  const mail = only(mails, event);
  expectNotification(mail, id, event, to);
  return mail;
}

/** The thread once it holds `count` messages; the texts, oldest first. */
async function thread(id: string, count: number): Promise<string[]> {
  const posts = await eventually(
    () => chatThread(chat(), id),
    (p) => p.length >= count,
    `${count} chat messages in thread ${id}`,
  );
  return posts.map((p) => p.text);
}

beforeAll(async () => {
  admin = await f.adminToken();
});

describe('notifications (S10)', () => {
  it('PLATFORM_SETTLEMENT, INDIVIDUAL partner: the advertiser, the partner and the team hear of each step', async () => {
    const [advertiserMail, partnerMail] = [address('advertiser'), address('partner')];
    const advertiserId = await advertiser(advertiserMail);
    const p = await partner('INDIVIDUAL', partnerMail, `Minseo ${tag}`);
    const id = await f.newSettlement(admin, {
      partnerId: p.id,
      advertiserId,
      price: '1000005.00',
    });
    await f.expectOk(f.call('POST', f.partnerPath(id, '/request'), p.token));
    const issued = await f.expectOk(f.call('POST', f.adminPath(id, '/retry-issuance'), admin));
    const invoiceNumber = issued.advertiserInvoice!['invoiceNumber'] as string;
    // The provider's answer locks and changes the settlement a moment later: a change sent
    // meanwhile may get the retryable 409 (DESIGN S2), so the walk waits for that answer first.
    await untilInvoice(admin, id, 'SUCCESS');
    await f.expectOk(
      f.call('PATCH', f.adminPath(id, '/status'), admin, {
        status: 'ADVERTISER_PAID',
        reason: 'deposit <seen>',
      }),
    );
    const payingOut = await f.expectOk(f.call('POST', f.adminPath(id, '/start-payout'), admin));
    const payoutNumber = payingOut.partnerPayout!['payoutNumber'] as string;
    await f.expectOk(
      f.call('POST', f.adminPath(id, '/complete'), admin, { transactionId: 'TX-5521' }),
    );

    // The provider's tax invoice (waited for above) is a mail of its own to the advertiser.
    const toAdvertiser = await inbox(advertiserMail, [
      'PAYMENT_REQUEST_ADVERTISER',
      'INVOICE_ISSUED_ADVERTISER',
      'PAYMENT_CONFIRMED_ADVERTISER',
    ]);
    const request = notice(toAdvertiser, id, 'PAYMENT_REQUEST_ADVERTISER', advertiserMail);
    expect(request.subject).toContain(invoiceNumber);
    expect(request.text).toMatch(/Supply amount:\s+KRW 1,000,005\.00/);
    expect(request.text).toMatch(/VAT:\s+KRW 100,001\.00/);
    expect(request.text).toMatch(/Total due:\s+KRW 1,100,006\.00/);
    expect(request.text).toMatch(
      /Deposit account\n\s+Bank:\s+Shinhan Bank\n\s+Account number:\s+110-123-456789/,
    );
    expect(request.html).toContain('<td>KRW 1,100,006.00</td>');
    expect(request.html).toContain(`<td>${invoiceNumber}</td>`);
    const confirmed = notice(toAdvertiser, id, 'PAYMENT_CONFIRMED_ADVERTISER', advertiserMail);
    expect(confirmed.text).toMatch(new RegExp(`Invoice number:\\s+${invoiceNumber}`));
    expect(confirmed.text).toMatch(/Amount:\s+KRW 1,100,006\.00/);

    // An INDIVIDUAL partner issues no tax invoice: no INVOICE_REQUEST_PARTNER.
    const toPartner = await inbox(partnerMail, [
      'ADVERTISER_PAID_PARTNER',
      'PAYOUT_COMPLETED_PARTNER',
    ]);
    const paid = notice(toPartner, id, 'ADVERTISER_PAID_PARTNER', partnerMail);
    expect(paid.text).toMatch(/Campaign price:\s+KRW 1,000,005\.00/);
    expect(paid.text).toMatch(/Commission:\s+KRW 300,002\.00/);
    expect(paid.text).toMatch(/Settlement amount:\s+KRW 700,003\.00/);
    expect(paid.text).toMatch(/Withholding tax:\s+KRW 23,100\.00/);
    expect(paid.text).toMatch(/Payout amount:\s+KRW 676,903\.00/);
    const payout = notice(toPartner, id, 'PAYOUT_COMPLETED_PARTNER', partnerMail);
    expect(payout.subject).toBe(`Payout ${payoutNumber} sent: KRW 676,903.00`);
    expect(payout.text).toMatch(/Transaction:\s+TX-5521/);
    expect(payout.text).toMatch(
      /Paid to\n\s+Bank:\s+Kakao Bank\n\s+Account number:\s+3333-01-1234567/,
    );

    const texts = await thread(id, 5);
    expect(texts.map((t) => t.split('\n')[0])).toEqual([
      expect.stringMatching(/^\[SETTLEMENT_REQUESTED\] Minseo \S+ \(INDIVIDUAL\) requested/),
      '[SETTLEMENT_STATUS_CHANGED] SETTLEMENT_PENDING → AWAITING_ADVERTISER_PAYMENT',
      '[SETTLEMENT_STATUS_CHANGED] AWAITING_ADVERTISER_PAYMENT → ADVERTISER_PAID',
      '[SETTLEMENT_STATUS_CHANGED] ADVERTISER_PAID → PARTNER_PAYOUT_PROCESSING',
      '[SETTLEMENT_STATUS_CHANGED] PARTNER_PAYOUT_PROCESSING → SETTLEMENT_COMPLETED',
    ]);
    expect(texts[0]).toContain('campaign price KRW 1,000,005.00, payout KRW 676,903.00');
    expect(texts[2]).toContain('reason: deposit <seen>');
  });

  it("DIRECT_INVOICE: the advertiser gets the partner's bank details, then the invoice and payment notices", async () => {
    const advertiserMail = address('direct-advertiser');
    const advertiserId = await advertiser(advertiserMail);
    const p = await partner('INDIVIDUAL', address('direct-partner'), `Jiwoo ${tag}`);
    const id = await f.newSettlement(admin, {
      partnerId: p.id,
      advertiserId,
      price: '2500000.00',
      settlementType: 'DIRECT_INVOICE',
    });
    await f.expectOk(f.call('POST', f.partnerPath(id, '/request'), p.token));
    await f.expectOk(f.call('POST', f.partnerPath(id, '/invoice-issued'), p.token));
    await f.expectOk(f.call('POST', f.adminPath(id, '/invoice-paid'), admin));

    const mails = await inbox(advertiserMail, [
      'DIRECT_SETTLEMENT_REQUEST',
      'INVOICE_ISSUED_ADVERTISER',
      'PAYMENT_CONFIRMED_ADVERTISER',
    ]);
    const request = notice(mails, id, 'DIRECT_SETTLEMENT_REQUEST', advertiserMail);
    expect(request.subject).toContain(`please pay Jiwoo ${tag}`);
    expect(request.text).toMatch(/Amount:\s+KRW 2,500,000\.00/);
    expect(request.text).toMatch(
      /Partner's bank account\n\s+Bank:\s+Kakao Bank\n\s+Account number:\s+3333-01-1234567\n\s+Account holder:\s+Park Minseo/,
    );
    expect(request.html).toContain('<td>3333-01-1234567</td>');
    const issued = notice(mails, id, 'INVOICE_ISSUED_ADVERTISER', advertiserMail);
    expect(issued.text).toMatch(new RegExp(`Issued by:\\s+Jiwoo ${tag}`));
    expect(issued.text).toMatch(/Amount:\s+KRW 2,500,000\.00/);
    const confirmed = only(mails, 'PAYMENT_CONFIRMED_ADVERTISER');
    expect(confirmed.text).toMatch(/Amount:\s+KRW 2,500,000\.00/);
    expect(confirmed.text).not.toContain('Invoice number');

    const texts = await thread(id, 3);
    expect(texts.map((t) => t.split('\n')[0])).toEqual([
      expect.stringMatching(
        /^\[SETTLEMENT_REQUESTED\] Jiwoo \S+ \(INDIVIDUAL\) requested .*DIRECT_INVOICE/,
      ),
      '[SETTLEMENT_STATUS_CHANGED] SETTLEMENT_PENDING → AWAITING_ADVERTISER_PAYMENT',
      '[SETTLEMENT_STATUS_CHANGED] AWAITING_ADVERTISER_PAYMENT → SETTLEMENT_COMPLETED',
    ]);
  });

  it('a business partner is asked for its tax invoice when the payout starts', async () => {
    const partnerMail = address('business');
    const advertiserId = await advertiser(address('business-advertiser'));
    // The reverse issuance cannot succeed (no business number; and fail_ makes the simulated
    // provider refuse it), so no tax invoice arrives by itself: start-payout must ask for one.
    const p = await partner('CORPORATE_BUSINESS', partnerMail, `fail_River ${tag}`);
    const id = await f.newSettlement(admin, { partnerId: p.id, advertiserId, agencyId: 2 });
    await f.expectOk(f.call('POST', f.partnerPath(id, '/request'), p.token));
    await f.expectOk(
      f.call('PATCH', f.adminPath(id, '/status'), admin, { status: 'ADVERTISER_PAID' }),
    );
    const payingOut = await f.expectOk(f.call('POST', f.adminPath(id, '/start-payout'), admin));
    expect(payingOut.partnerPayout).toMatchObject({ status: 'PENDING' });

    const mails = await mailsFor(sink(), partnerMail, ['INVOICE_REQUEST_PARTNER']);
    const ask = notice(mails, id, 'INVOICE_REQUEST_PARTNER', partnerMail);
    expect(ask.subject).toContain(payingOut.partnerPayout!['payoutNumber'] as string);
    // Commission 20% of 1,000,000: the partner invoices 800,000 + VAT to agency 2.
    expect(ask.text).toMatch(/Supply amount:\s+KRW 800,000\.00/);
    expect(ask.text).toMatch(/VAT:\s+KRW 80,000\.00/);
    expect(ask.text).toMatch(/Total:\s+KRW 880,000\.00/);
    expect(ask.text).toMatch(/Buyer\n\s+Name:\s+\S/);
  });
});

import { describe, expect, it, vi } from 'vitest';
import type { OutboxRow } from '../channel-handler.js';
import type { OutgoingMail, SentMail } from '../../../outside/mail/mailer.port.js';
import type { EmailEvent } from '../outbox.js';
import { composeEmail, createEmailHandler } from './email-handler.js';

const base = {
  settlementId: 'SET12',
  campaignId: 'CAM14',
  campaignTitle: 'Spring <launch> & "more"',
  settlementType: 'PLATFORM_SETTLEMENT',
};
const bank = {
  bankName: 'Shinhan Bank',
  accountNumber: '110-123-456789',
  accountHolder: 'Platform',
};

/** Payloads as settlement-notices.ts writes them. */
const payloads: Record<EmailEvent, Record<string, unknown>> = {
  PAYMENT_REQUEST_ADVERTISER: {
    advertiserName: 'Glow',
    invoiceNumber: 'INV-2026-12-0007',
    subtotal: '1000005.00',
    taxAmount: '100001.00',
    totalAmount: '1100006.00',
    ...bank,
  },
  DIRECT_SETTLEMENT_REQUEST: {
    advertiserName: 'Glow',
    partnerName: 'Minseo',
    amount: '800000.00',
    bankName: 'Kakao Bank',
    accountNumber: '3333-01-2345678',
    accountHolder: 'Park Minseo',
  },
  INVOICE_ISSUED_ADVERTISER: { advertiserName: 'Glow', issuer: 'Minseo', amount: '800000.00' },
  PAYMENT_OVERDUE_ADVERTISER: {
    advertiserName: 'Glow',
    invoiceNumber: 'INV-2026-12-0007',
    dueDate: '2026-12-21',
    totalAmount: '1100006.00',
    ...bank,
  },
  INVOICE_CANCELLED_ADVERTISER: {
    advertiserName: 'Glow',
    invoiceNumber: 'INV-2026-12-0007',
    taxInvoiceNumber: '20261201-41000000-00000007',
    cancellationTaxInvoiceNumber: '20261202-41000000-00000008',
    cancellationTaxInvoiceIssuedAt: '2026-12-02T01:00:00.000Z',
    documentUrl: 'https://provider.test/documents/20261202-41000000-00000008',
    subtotal: '1000005.00',
    taxAmount: '100001.00',
    totalAmount: '1100006.00',
  },
  PAYMENT_CONFIRMED_ADVERTISER: {
    advertiserName: 'Glow',
    invoiceNumber: 'INV-2026-12-0007',
    amount: '1100006.00',
  },
  ADVERTISER_PAID_PARTNER: {
    partnerName: 'Minseo',
    settlementAmount: '700003.00',
    withholdingTaxAmount: '23100.00',
    payoutAmount: '676903.00',
  },
  INVOICE_REQUEST_PARTNER: {
    partnerName: 'Han River',
    payoutNumber: 'PAY-2026-12-0003',
    buyer: { businessName: 'Platform Co.', businessNumber: '1208147521', email: 'a@b.example' },
    supplyAmount: '800000.00',
    taxAmount: '80000.00',
    totalAmount: '880000.00',
  },
  PAYOUT_COMPLETED_PARTNER: {
    partnerName: 'Minseo',
    payoutNumber: 'PAY-2026-12-0003',
    payoutAmount: '676903.00',
    transactionId: 'TX-1',
    ...bank,
  },
  REVERSE_ISSUANCE_APPROVAL_PARTNER: {
    partnerName: 'Han River',
    issuanceKey: 'SET12-R1',
    grantUrl: 'http://127.0.0.1:4103/approve/abc?x=1&y=2',
    grantUrlExpiresAt: '2026-12-01T05:10:00.000Z',
    totalAmount: '880000.00',
  },
};

const row = (event: EmailEvent, payload = payloads[event]): OutboxRow => ({
  id: '41',
  event,
  channel: 'EMAIL',
  recipient: 'ads@glow.example',
  settlementId: 'SET12',
  payload: { event, ...base, ...payload },
  dedupeKey: `SET12:v3:${event}`,
  attempts: 0,
});

describe('notification e-mails', () => {
  it.each(Object.keys(payloads) as EmailEvent[])(
    '%s: both parts, the fixed headers and a Message-ID from the dedupe key',
    (event) => {
      const mail = composeEmail(row(event), 'campaign-platform.local');
      expect(mail.to).toBe('ads@glow.example');
      expect(mail.headers).toEqual({ 'X-Event': event, 'X-Settlement-Id': 'SET12' });
      expect(mail.messageId).toMatch(
        new RegExp(`^<SET12\\.v3\\.${event}\\.[0-9a-f]{10}@campaign-platform\\.local>$`),
      );
      expect(mail.text).toContain('"Spring <launch> & "more""');
      expect(mail.html).toContain('&quot;Spring &lt;launch&gt; &amp; &quot;more&quot;&quot;');
      expect(mail.html).not.toContain('<launch>');
      expect(mail.text).toContain('SET12');
    },
  );

  it('the payment request shows the invoice, its amounts and the deposit account', () => {
    const mail = composeEmail(row('PAYMENT_REQUEST_ADVERTISER'), 'x.example');
    expect(mail.subject).toBe(
      'Payment request INV-2026-12-0007 for campaign "Spring <launch> & "more""',
    );
    expect(mail.text).toMatch(/Total due:\s+KRW 1,100,006\.00/);
    expect(mail.text).toMatch(/VAT:\s+KRW 100,001\.00/);
    expect(mail.text).toMatch(
      /Deposit account\n {2}Bank:\s+Shinhan Bank\n {2}Account number:\s+110-123-456789/,
    );
    expect(mail.html).toContain('<td>KRW 1,100,006.00</td>');
    expect(mail.text.startsWith('Dear Glow,\n')).toBe(true);
  });

  it("the direct settlement request carries the partner's bank details", () => {
    const { text } = composeEmail(row('DIRECT_SETTLEMENT_REQUEST'), 'x.example');
    expect(text).toMatch(/Amount:\s+KRW 800,000\.00/);
    expect(text).toMatch(/Partner's bank account\n {2}Bank:\s+Kakao Bank/);
    expect(text).toMatch(/Account holder:\s+Park Minseo/);
  });

  it('the approval e-mail links the URL (escaped in HTML) and says until when it is valid', () => {
    const mail = composeEmail(row('REVERSE_ISSUANCE_APPROVAL_PARTNER'), 'x.example');
    expect(mail.text).toContain('Review and approve: http://127.0.0.1:4103/approve/abc?x=1&y=2');
    expect(mail.text).toContain('valid for 10 minutes (until 2026-12-01 14:10 KST)');
    expect(mail.html).toContain('href="http://127.0.0.1:4103/approve/abc?x=1&amp;y=2"');
  });

  it('a payload missing what its template needs is final: the row ends DEAD at once', () => {
    const { invoiceNumber: _dropped, ...rest } = payloads.PAYMENT_REQUEST_ADVERTISER;
    expect(() => composeEmail(row('PAYMENT_REQUEST_ADVERTISER', rest), 'x.example')).toThrow(
      expect.objectContaining({
        retryable: false,
        message: expect.stringMatching(/invoiceNumber/),
      }),
    );
    const bad = { ...payloads.PAYMENT_CONFIRMED_ADVERTISER, amount: 1e21 };
    expect(() => composeEmail(row('PAYMENT_CONFIRMED_ADVERTISER', bad), 'x.example')).toThrow(
      expect.objectContaining({ retryable: false }),
    );
  });

  it('sends through the mailer, and a message no recipient took is final', async () => {
    const send = vi.fn(async (_mail: OutgoingMail): Promise<SentMail> => ({
      messageId: '<m>',
      accepted: ['ads@glow.example'],
      rejected: [],
    }));
    const handler = createEmailHandler({ mailer: { send, close: vi.fn() }, domain: 'x.example' });
    await handler(row('PAYMENT_CONFIRMED_ADVERTISER'));
    expect(send).toHaveBeenCalledOnce();
    send.mockResolvedValueOnce({ messageId: '<m>', accepted: [], rejected: ['ads@glow.example'] });
    await expect(handler(row('PAYMENT_CONFIRMED_ADVERTISER'))).rejects.toMatchObject({
      retryable: false,
    });
  });
});

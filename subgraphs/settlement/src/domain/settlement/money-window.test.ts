import { describe, expect, it } from 'vitest';
import type { AdvertiserInvoice } from '../invoice/advertiser-invoice.entity.js';
import { InvoiceService } from '../invoice/invoice.service.js';
import { whyMoneyMoved } from './money-window.js';
import type { SettlementStatus } from '../../kernel/settlement-types.js';

const invoices = new InvoiceService();
const invoice = (status: string) =>
  ({ invoiceNumber: 'INV-2026-11-0001', status }) as AdvertiserInvoice;
const at = (status: SettlementStatus, invoiceIssuedAt: Date | null = null) => ({
  status,
  invoiceIssuedAt,
});

describe('the S5 window (type changes and campaign changes)', () => {
  it('is open before any money moved', () => {
    expect(whyMoneyMoved(at('SETTLEMENT_PENDING'), null, invoices)).toBeNull();
    expect(whyMoneyMoved(at('AWAITING_ADVERTISER_PAYMENT'), invoice('DRAFT'), invoices)).toBeNull();
  });

  it('closes with the status, an issued invoice or an issued DIRECT tax invoice, saying why', () => {
    expect(whyMoneyMoved(at('ADVERTISER_PAID'), null, invoices)).toBe('it is ADVERTISER_PAID');
    expect(whyMoneyMoved(at('SETTLEMENT_CANCELLED'), null, invoices)).toBe(
      'it is SETTLEMENT_CANCELLED',
    );
    expect(whyMoneyMoved(at('SETTLEMENT_PENDING'), invoice('ISSUED'), invoices)).toBe(
      'its advertiser invoice INV-2026-11-0001 is ISSUED',
    );
    expect(whyMoneyMoved(at('AWAITING_ADVERTISER_PAYMENT', new Date()), null, invoices)).toBe(
      'its tax invoice was already issued',
    );
  });
});

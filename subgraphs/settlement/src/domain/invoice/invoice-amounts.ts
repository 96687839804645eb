import { Decimal } from 'decimal.js';
import { parseMoney, percentOf, roundHalfUpToWhole, sumMoney } from '../../kernel/money/money.js';

/** VAT on an advertiser invoice's supply amount (spec 2.5). */
export const VAT_RATE_PERCENT = new Decimal(10);

export interface InvoiceAmounts {
  subtotal: Decimal;
  taxAmount: Decimal;
  totalAmount: Decimal;
}

/** Supply amount, VAT 10% rounded half up to whole units, and their total. */
export function calculateInvoiceAmounts(supplyAmount: Decimal | string): InvoiceAmounts {
  const subtotal = parseMoney(supplyAmount, 'subtotal');
  const taxAmount = roundHalfUpToWhole(percentOf(subtotal, VAT_RATE_PERCENT));
  return { subtotal, taxAmount, totalAmount: sumMoney([subtotal, taxAmount]) };
}

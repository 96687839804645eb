import type { Decimal } from 'decimal.js';
import { calculateInvoiceAmounts } from '../invoice/invoice-amounts.js';
import { parseMoney, sumMoney } from '../../kernel/money/money.js';

/** A quotation's money (DESIGN.md S14): the lines' prices, VAT 10 % half up, total. */
export interface QuotationAmounts {
  supplyAmount: Decimal;
  vatAmount: Decimal;
  totalAmount: Decimal;
}

/** The same VAT rule as advertiser invoices: one rule, one place (invoice-amounts.ts). */
export function calculateQuotationAmounts(
  lines: readonly { price: Decimal | string }[],
): QuotationAmounts {
  const supply = sumMoney(lines.map((line, i) => parseMoney(line.price, `lines[${i}].price`)));
  const { subtotal, taxAmount, totalAmount } = calculateInvoiceAmounts(supply);
  return { supplyAmount: subtotal, vatAmount: taxAmount, totalAmount };
}

import { describe, expect, it } from 'vitest';
import { formatMoney } from '../../kernel/money/money.js';
import { calculateInvoiceAmounts } from './invoice-amounts.js';

describe('calculateInvoiceAmounts', () => {
  it.each([
    ['1000000.00', '100000.00', '1100000.00', 'exact'],
    ['1000005.00', '100001.00', '1100006.00', 'half rounds up: 100000.5 → 100001'],
    ['1000004.00', '100000.00', '1100004.00', '100000.4 rounds down'],
    ['15.00', '2.00', '17.00', '1.5 → 2'],
    ['14.99', '1.00', '15.99', '1.499 → 1'],
    ['0.00', '0.00', '0.00', 'zero'],
    ['9999999.99', '1000000.00', '10999999.99', '999999.999 → 1000000'],
  ])('%s → VAT %s, total %s (%s)', (subtotal, tax, total) => {
    const amounts = calculateInvoiceAmounts(subtotal);
    expect(formatMoney(amounts.subtotal)).toBe(subtotal);
    expect(formatMoney(amounts.taxAmount)).toBe(tax);
    expect(formatMoney(amounts.totalAmount)).toBe(total);
  });

  it('rejects a negative supply amount', () => {
    expect(() => calculateInvoiceAmounts('-1.00')).toThrow(/must not be negative/);
  });
});

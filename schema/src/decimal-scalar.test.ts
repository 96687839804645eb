import fc from 'fast-check';
import { Decimal } from 'decimal.js';
import { describe, expect, it } from 'vitest';
import { DecimalScalar } from './decimal-scalar.js';

/** What the scalar sent before stored rows (issue 27): every value through decimal.js. */
const throughDecimal = (value: Decimal.Value) => new Decimal(value).toFixed(2);

describe('Decimal scalar output', () => {
  it('sends a numeric(15,2) text as it is, exactly what decimal.js makes of it', () => {
    const cents = fc.bigInt({ min: -(10n ** 15n) + 1n, max: 10n ** 15n - 1n });
    fc.assert(
      fc.property(cents, (n) => {
        const abs = n < 0n ? -n : n;
        const text = `${n < 0n ? '-' : ''}${abs / 100n}.${String(abs % 100n).padStart(2, '0')}`;
        expect(DecimalScalar.serialize(text)).toBe(throughDecimal(text));
        expect(DecimalScalar.serialize(new Decimal(text))).toBe(throughDecimal(text));
      }),
    );
  });

  it('reads any other form through decimal.js, as before', () => {
    for (const value of ['-0.00', '007.50', '3.3', '3.305', '1e3', '12', 12.5]) {
      expect(DecimalScalar.serialize(value)).toBe(throughDecimal(value));
    }
  });
});

import { Decimal } from 'decimal.js';
import { describe, expect, it } from 'vitest';

import { InvalidAmountError, InvalidRateError } from '../../kernel/money/money-errors.js';
import { formatMoney } from '../../kernel/money/money.js';
import { formatRate } from '../../kernel/money/rate.js';
import { calculateSettlementAmounts } from './settlement-amounts.js';
import { noWithholding, printed, withheld } from './settlement-amounts.fixtures.js';
import { InvalidSettlementAmountsError } from './settlement-errors.js';
import {
  type PartnerEntityType,
  type SettlementType,
  partnerEntityTypes,
  settlementTypes,
} from '../../kernel/settlement-types.js';

/** The edges of calculateSettlementAmounts: zero, the largest price, and what it refuses. */
describe('calculateSettlementAmounts at its limits', () => {
  it.each(settlementTypes.flatMap((t) => partnerEntityTypes.map((p) => [t, p] as const)))(
    'zero price: %s / %s gives all-zero amounts',
    (settlementType, partnerEntityType) => {
      const result = calculateSettlementAmounts({
        campaignPrice: '0',
        settlementType,
        partnerEntityType,
      });
      expect(formatMoney(result.commissionAmount)).toBe('0.00');
      expect(formatMoney(result.settlementAmount)).toBe('0.00');
      expect(formatMoney(result.withholdingTaxAmount)).toBe('0.00');
      expect(formatMoney(result.payoutAmount)).toBe('0.00');
    },
  );

  describe('the largest price numeric(15,2) holds, exactly', () => {
    const campaignPrice = '9999999999999.99';

    it.each([
      {
        name: 'corporate, platform: 20% of it',
        settlementType: 'PLATFORM_SETTLEMENT',
        partnerEntityType: 'CORPORATE_BUSINESS',
        expected: noWithholding('20.00', '2000000000000.00', '7999999999999.99'),
      },
      {
        name: 'individual, platform: 30% and 3.3% of it',
        settlementType: 'PLATFORM_SETTLEMENT',
        partnerEntityType: 'INDIVIDUAL',
        expected: withheld(
          '30.00',
          '3000000000000.00',
          '6999999999999.99',
          '231000000000.00',
          '6768999999999.99',
        ),
      },
      {
        name: 'direct invoice: all of it',
        settlementType: 'DIRECT_INVOICE',
        partnerEntityType: 'INDIVIDUAL',
        expected: noWithholding('0.00', '0.00', campaignPrice),
      },
    ] as const)('$name', ({ settlementType, partnerEntityType, expected }) => {
      const result = calculateSettlementAmounts({
        campaignPrice,
        settlementType,
        partnerEntityType,
      });
      expect(printed(result)).toEqual(expected);
    });

    it('is not affected by a low global Decimal precision', () => {
      const saved = Decimal.precision;
      Decimal.set({ precision: 1 });
      try {
        const result = calculateSettlementAmounts({
          campaignPrice,
          settlementType: 'PLATFORM_SETTLEMENT',
          partnerEntityType: 'INDIVIDUAL',
          campaignCommissionRate: '12.25',
        });
        expect(formatRate(result.commissionRate)).toBe('22.25');
        expect(formatMoney(result.commissionAmount)).toBe('2225000000000.00');
        expect(formatMoney(result.payoutAmount)).toBe('7518424999999.99');
      } finally {
        Decimal.set({ precision: saved });
      }
    });
  });

  describe('rejects', () => {
    const base = {
      settlementType: 'PLATFORM_SETTLEMENT',
      partnerEntityType: 'CORPORATE_BUSINESS',
    } as const;

    it.each(['-1', '1.234', '10000000000000.00', 'abc', '1e3'])('price %s', (campaignPrice) => {
      expect(() => calculateSettlementAmounts({ ...base, campaignPrice })).toThrow(
        InvalidAmountError,
      );
    });

    it.each(['-1', '100.01', '12.345', 'x'])('campaign rate %s', (rate) => {
      expect(() =>
        calculateSettlementAmounts({ ...base, campaignPrice: '100', campaignCommissionRate: rate }),
      ).toThrow(InvalidRateError);
    });

    it('a partner rate out of range even when the campaign rate is unset', () => {
      expect(() =>
        calculateSettlementAmounts({ ...base, campaignPrice: '100', partnerCommissionRate: '101' }),
      ).toThrow(InvalidRateError);
    });

    it('an individual rate above 100 after the +10 points', () => {
      const call = () =>
        calculateSettlementAmounts({
          campaignPrice: '100',
          settlementType: 'PLATFORM_SETTLEMENT',
          partnerEntityType: 'INDIVIDUAL',
          campaignCommissionRate: '90.01',
        });
      expect(call).toThrow(InvalidSettlementAmountsError);
      expect(call).toThrow(/100\.01% .*exceeds 100%/);
    });

    it('a commission that rounds above a price with cents', () => {
      expect(() =>
        calculateSettlementAmounts({
          ...base,
          campaignPrice: '0.60',
          campaignCommissionRate: '95',
        }),
      ).toThrow(InvalidSettlementAmountsError);
    });

    it('unknown enumeration values with INVALID_REQUEST', () => {
      const call = () =>
        calculateSettlementAmounts({
          campaignPrice: '100',
          settlementType: 'MONTHLY' as SettlementType,
          partnerEntityType: 'INDIVIDUAL',
        });
      expect(call).toThrow(expect.objectContaining({ code: 'INVALID_REQUEST' }));
      expect(() =>
        calculateSettlementAmounts({
          campaignPrice: '100',
          settlementType: 'DIRECT_INVOICE',
          partnerEntityType: 'NGO' as PartnerEntityType,
        }),
      ).toThrow(expect.objectContaining({ code: 'INVALID_REQUEST' }));
    });

    it('errors carry the catalogue code and field', () => {
      try {
        calculateSettlementAmounts({ ...base, campaignPrice: '-5' });
        expect.unreachable();
      } catch (error) {
        expect(error).toMatchObject({
          code: 'INVALID_REQUEST',
          field: 'campaignPrice',
          reason: 'negative',
          extensions: { code: 'INVALID_REQUEST', httpStatus: 400, field: 'campaignPrice' },
        });
      }
    });
  });
});

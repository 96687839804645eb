import { Decimal } from 'decimal.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { InvalidAmountError, InvalidRateError } from '../../kernel/money/money-errors.js';
import { formatMoney } from '../../kernel/money/money.js';
import { formatRate } from '../../kernel/money/rate.js';
import {
  type SettlementAmounts,
  type SettlementAmountsInput,
  calculateSettlementAmounts,
} from './settlement-amounts.js';
import { InvalidSettlementAmountsError } from './settlement-errors.js';
import {
  type PartnerEntityType,
  type SettlementType,
  partnerEntityTypes,
  settlementTypes,
} from '../../kernel/settlement-types.js';

/** Expected amounts as the strings numeric(15,2) / decimal(5,2) would print. */
interface Expected {
  rate: string;
  commission: string;
  settlement: string;
  withholdingRate: string;
  withholding: string;
  payout: string;
}

function printed(a: SettlementAmounts): Expected {
  return {
    rate: formatRate(a.commissionRate),
    commission: formatMoney(a.commissionAmount),
    settlement: formatMoney(a.settlementAmount),
    withholdingRate: formatRate(a.withholdingTaxRate),
    withholding: formatMoney(a.withholdingTaxAmount),
    payout: formatMoney(a.payoutAmount),
  };
}

function noWithholding(rate: string, commission: string, settlement: string): Expected {
  return {
    rate,
    commission,
    settlement,
    withholdingRate: '0.00',
    withholding: '0.00',
    payout: settlement,
  };
}

const DIRECT_1M = noWithholding('0.00', '0.00', '1000000.00');

type RateSource = 'campaign rate set' | 'partner rate set' | 'neither set';

const rateSources: Record<
  RateSource,
  Pick<SettlementAmountsInput, 'campaignCommissionRate' | 'partnerCommissionRate'>
> = {
  'campaign rate set': { campaignCommissionRate: '15', partnerCommissionRate: '25' },
  'partner rate set': { campaignCommissionRate: null, partnerCommissionRate: '25' },
  'neither set': {},
};

/** Price 1,000,000 for every partner type x settlement type x rate source. */
const matrix: Record<SettlementType, Record<PartnerEntityType, Record<RateSource, Expected>>> = {
  PLATFORM_SETTLEMENT: {
    CORPORATE_BUSINESS: {
      'campaign rate set': noWithholding('15.00', '150000.00', '850000.00'),
      'partner rate set': noWithholding('25.00', '250000.00', '750000.00'),
      'neither set': noWithholding('20.00', '200000.00', '800000.00'),
    },
    INDIVIDUAL_BUSINESS: {
      'campaign rate set': noWithholding('15.00', '150000.00', '850000.00'),
      'partner rate set': noWithholding('25.00', '250000.00', '750000.00'),
      'neither set': noWithholding('20.00', '200000.00', '800000.00'),
    },
    INDIVIDUAL: {
      'campaign rate set': {
        rate: '25.00',
        commission: '250000.00',
        settlement: '750000.00',
        withholdingRate: '3.30',
        withholding: '24750.00',
        payout: '725250.00',
      },
      'partner rate set': {
        rate: '35.00',
        commission: '350000.00',
        settlement: '650000.00',
        withholdingRate: '3.30',
        withholding: '21450.00',
        payout: '628550.00',
      },
      'neither set': {
        rate: '30.00',
        commission: '300000.00',
        settlement: '700000.00',
        withholdingRate: '3.30',
        withholding: '23100.00',
        payout: '676900.00',
      },
    },
  },
  DIRECT_INVOICE: {
    CORPORATE_BUSINESS: {
      'campaign rate set': DIRECT_1M,
      'partner rate set': DIRECT_1M,
      'neither set': DIRECT_1M,
    },
    INDIVIDUAL_BUSINESS: {
      'campaign rate set': DIRECT_1M,
      'partner rate set': DIRECT_1M,
      'neither set': DIRECT_1M,
    },
    INDIVIDUAL: {
      'campaign rate set': DIRECT_1M,
      'partner rate set': DIRECT_1M,
      'neither set': DIRECT_1M,
    },
  },
};

const matrixRows = settlementTypes.flatMap((settlementType) =>
  partnerEntityTypes.flatMap((partnerEntityType) =>
    (Object.keys(rateSources) as RateSource[]).map((source) => ({
      settlementType,
      partnerEntityType,
      source,
      expected: matrix[settlementType][partnerEntityType][source],
    })),
  ),
);

describe('calculateSettlementAmounts', () => {
  it('covers every partner type x settlement type x rate source', () => {
    expect(matrixRows).toHaveLength(2 * 3 * 3);
  });

  it.each(matrixRows)(
    '$settlementType / $partnerEntityType / $source',
    ({ settlementType, partnerEntityType, source, expected }) => {
      const result = calculateSettlementAmounts({
        campaignPrice: '1000000',
        settlementType,
        partnerEntityType,
        ...rateSources[source],
      });
      expect(printed(result)).toEqual(expected);
    },
  );

  it('returns plain decimal.js Decimal values', () => {
    const result = calculateSettlementAmounts({
      campaignPrice: new Decimal(1000),
      settlementType: 'PLATFORM_SETTLEMENT',
      partnerEntityType: 'INDIVIDUAL',
    });
    for (const value of Object.values(result)) expect(value).toBeInstanceOf(Decimal);
  });

  describe('which commission rate applies', () => {
    it.each([
      ['a campaign rate of 0 is a set rate', '0', '25', 'CORPORATE_BUSINESS', '0.00'],
      ['a campaign rate of 0 still gets the individual +10', '0', '25', 'INDIVIDUAL', '10.00'],
      ['a partner rate of 0 is a set rate', null, '0', 'CORPORATE_BUSINESS', '0.00'],
      ['campaign null falls back to the partner', null, '12', 'INDIVIDUAL_BUSINESS', '12.00'],
      [
        'campaign undefined falls back to the partner',
        undefined,
        '12',
        'CORPORATE_BUSINESS',
        '12.00',
      ],
      ['both null fall back to 20', null, null, 'CORPORATE_BUSINESS', '20.00'],
      ['both null, individual: 20 + 10', null, null, 'INDIVIDUAL', '30.00'],
      ['a campaign rate of 100 is allowed', '100', null, 'CORPORATE_BUSINESS', '100.00'],
      ['90 plus 10 is exactly 100', '90', null, 'INDIVIDUAL', '100.00'],
    ] as const)('%s', (_name, campaignCommissionRate, partnerCommissionRate, partner, rate) => {
      const result = calculateSettlementAmounts({
        campaignPrice: '1000',
        settlementType: 'PLATFORM_SETTLEMENT',
        partnerEntityType: partner,
        campaignCommissionRate,
        partnerCommissionRate,
      });
      expect(formatRate(result.commissionRate)).toBe(rate);
    });

    it('ignores both rates for DIRECT_INVOICE', () => {
      const result = calculateSettlementAmounts({
        campaignPrice: '1000',
        settlementType: 'DIRECT_INVOICE',
        partnerEntityType: 'INDIVIDUAL',
        campaignCommissionRate: '15',
        partnerCommissionRate: '25',
      });
      expect(result.commissionRate.isZero()).toBe(true);
      expect(result.withholdingTaxRate.isZero()).toBe(true);
    });

    it('accepts Decimal and number rates', () => {
      const result = calculateSettlementAmounts({
        campaignPrice: '1000',
        settlementType: 'PLATFORM_SETTLEMENT',
        partnerEntityType: 'CORPORATE_BUSINESS',
        campaignCommissionRate: new Decimal('12.5'),
      });
      expect(formatMoney(result.commissionAmount)).toBe('125.00');
      const fromNumber = calculateSettlementAmounts({
        campaignPrice: 1000,
        settlementType: 'PLATFORM_SETTLEMENT',
        partnerEntityType: 'CORPORATE_BUSINESS',
        partnerCommissionRate: 7.25,
      });
      expect(formatMoney(fromNumber.commissionAmount)).toBe('73.00');
    });
  });

  it.each([
    {
      name: 'rate 15.5, corporate',
      price: '1000000',
      partner: 'CORPORATE_BUSINESS',
      rate: '15.5',
      expected: noWithholding('15.50', '155000.00', '845000.00'),
    },
    {
      name: 'rate 15.5 + 10, individual',
      price: '1000000',
      partner: 'INDIVIDUAL',
      rate: '15.5',
      expected: {
        rate: '25.50',
        commission: '255000.00',
        settlement: '745000.00',
        withholdingRate: '3.30',
        withholding: '24585.00',
        payout: '720415.00',
      },
    },
    {
      name: 'rate 12.25, 151234.4575 rounds down',
      price: '1234567',
      partner: 'INDIVIDUAL_BUSINESS',
      rate: '12.25',
      expected: noWithholding('12.25', '151234.00', '1083333.00'),
    },
    {
      name: 'rate 12.25 + 10, individual: 274691.1575 and 31675.908',
      price: '1234567',
      partner: 'INDIVIDUAL',
      rate: '12.25',
      expected: {
        rate: '22.25',
        commission: '274691.00',
        settlement: '959876.00',
        withholdingRate: '3.30',
        withholding: '31676.00',
        payout: '928200.00',
      },
    },
    {
      name: 'rate 33.33 on a price with cents',
      price: '999.99',
      partner: 'CORPORATE_BUSINESS',
      rate: '33.33',
      expected: noWithholding('33.33', '333.00', '666.99'),
    },
  ] as const)('decimal rates: $name', ({ price, partner, rate, expected }) => {
    const result = calculateSettlementAmounts({
      campaignPrice: price,
      settlementType: 'PLATFORM_SETTLEMENT',
      partnerEntityType: partner,
      campaignCommissionRate: rate,
    });
    expect(printed(result)).toEqual(expected);
  });

  describe('halves round up', () => {
    it('commission 1005 x 10% = 100.5 becomes 101', () => {
      const result = calculateSettlementAmounts({
        campaignPrice: '1005',
        settlementType: 'PLATFORM_SETTLEMENT',
        partnerEntityType: 'CORPORATE_BUSINESS',
        campaignCommissionRate: '10',
      });
      expect(printed(result)).toEqual(noWithholding('10.00', '101.00', '904.00'));
    });

    it('commission 100.499 stays 100', () => {
      const result = calculateSettlementAmounts({
        campaignPrice: '1004.99',
        settlementType: 'PLATFORM_SETTLEMENT',
        partnerEntityType: 'CORPORATE_BUSINESS',
        campaignCommissionRate: '10',
      });
      expect(printed(result)).toEqual(noWithholding('10.00', '100.00', '904.99'));
    });

    it('commission 642.9 becomes 643; withholding 1500 x 3.3% = 49.5 becomes 50', () => {
      const result = calculateSettlementAmounts({
        campaignPrice: '2143',
        settlementType: 'PLATFORM_SETTLEMENT',
        partnerEntityType: 'INDIVIDUAL',
      });
      expect(printed(result)).toEqual({
        rate: '30.00',
        commission: '643.00',
        settlement: '1500.00',
        withholdingRate: '3.30',
        withholding: '50.00',
        payout: '1450.00',
      });
    });

    it('withholding 500 x 3.3% = 16.5 becomes 17', () => {
      const result = calculateSettlementAmounts({
        campaignPrice: '714',
        settlementType: 'PLATFORM_SETTLEMENT',
        partnerEntityType: 'INDIVIDUAL',
      });
      expect(printed(result)).toEqual({
        rate: '30.00',
        commission: '214.00',
        settlement: '500.00',
        withholdingRate: '3.30',
        withholding: '17.00',
        payout: '483.00',
      });
    });
  });

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

    it('corporate, platform: 20% of it', () => {
      const result = calculateSettlementAmounts({
        campaignPrice,
        settlementType: 'PLATFORM_SETTLEMENT',
        partnerEntityType: 'CORPORATE_BUSINESS',
      });
      expect(printed(result)).toEqual(
        noWithholding('20.00', '2000000000000.00', '7999999999999.99'),
      );
    });

    it('individual, platform: 30% and 3.3% of it', () => {
      const result = calculateSettlementAmounts({
        campaignPrice,
        settlementType: 'PLATFORM_SETTLEMENT',
        partnerEntityType: 'INDIVIDUAL',
      });
      expect(printed(result)).toEqual({
        rate: '30.00',
        commission: '3000000000000.00',
        settlement: '6999999999999.99',
        withholdingRate: '3.30',
        withholding: '231000000000.00',
        payout: '6768999999999.99',
      });
    });

    it('direct invoice: all of it', () => {
      const result = calculateSettlementAmounts({
        campaignPrice,
        settlementType: 'DIRECT_INVOICE',
        partnerEntityType: 'INDIVIDUAL',
      });
      expect(printed(result)).toEqual(noWithholding('0.00', '0.00', campaignPrice));
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

/** Independent oracle: integer arithmetic on cents and hundredths of a percent. */
function oracle(priceCents: bigint, ratePoints: bigint, individualPlatform: boolean) {
  const halfUp = (numerator: bigint, denominator: bigint) =>
    (2n * numerator + denominator) / (2n * denominator);
  // price x rate / 100 in whole units = cents/100 x points/100 / 100
  const commission = halfUp(priceCents * ratePoints, 1_000_000n);
  const settlementCents = priceCents - commission * 100n;
  // settlement x 3.3 / 100 in whole units = cents/100 x 33/10 / 100
  const withholding = individualPlatform ? halfUp(settlementCents * 33n, 100_000n) : 0n;
  return { commission, settlementCents, withholding };
}

const centsToMoney = (cents: bigint) => new Decimal(cents.toString()).dividedBy(100);

describe('calculateSettlementAmounts properties', () => {
  const maxCents = 999_999_999_999_999n;
  const arbitraryInput = fc.record({
    priceCents: fc.bigInt({ min: 0n, max: maxCents }),
    campaignRatePoints: fc.option(fc.bigInt({ min: 0n, max: 10_000n }), { nil: null }),
    partnerRatePoints: fc.option(fc.bigInt({ min: 0n, max: 10_000n }), { nil: null }),
    settlementType: fc.constantFrom(...settlementTypes),
    partnerEntityType: fc.constantFrom(...partnerEntityTypes),
  });

  it('commission + settlement = price and withholding + payout = settlement, matching the oracle', () => {
    fc.assert(
      fc.property(arbitraryInput, (input) => {
        const rateOf = (points: bigint | null) =>
          points === null ? null : new Decimal(points.toString()).dividedBy(100);
        const campaignPrice = centsToMoney(input.priceCents);
        const args: SettlementAmountsInput = {
          campaignPrice,
          settlementType: input.settlementType,
          partnerEntityType: input.partnerEntityType,
          campaignCommissionRate: rateOf(input.campaignRatePoints),
          partnerCommissionRate: rateOf(input.partnerRatePoints),
        };
        const platform = input.settlementType === 'PLATFORM_SETTLEMENT';
        const individualPlatform = platform && input.partnerEntityType === 'INDIVIDUAL';
        const basePoints = input.campaignRatePoints ?? input.partnerRatePoints ?? 2000n;
        const ratePoints = !platform ? 0n : basePoints + (individualPlatform ? 1000n : 0n);
        const expected = oracle(input.priceCents, ratePoints, individualPlatform);

        if (ratePoints > 10_000n || expected.commission * 100n > input.priceCents) {
          expect(() => calculateSettlementAmounts(args)).toThrow(InvalidSettlementAmountsError);
          return;
        }
        const result = calculateSettlementAmounts(args);
        expect(result.commissionAmount.plus(result.settlementAmount).equals(campaignPrice)).toBe(
          true,
        );
        expect(
          result.withholdingTaxAmount.plus(result.payoutAmount).equals(result.settlementAmount),
        ).toBe(true);
        expect(result.commissionAmount.isInteger()).toBe(true);
        expect(result.withholdingTaxAmount.isInteger()).toBe(true);
        expect(result.payoutAmount.isNegative() && !result.payoutAmount.isZero()).toBe(false);
        expect(result.commissionRate.times(100).toString()).toBe(ratePoints.toString());
        expect(result.commissionAmount.toString()).toBe(expected.commission.toString());
        expect(result.settlementAmount.equals(centsToMoney(expected.settlementCents))).toBe(true);
        expect(result.withholdingTaxAmount.toString()).toBe(expected.withholding.toString());
      }),
      { numRuns: 2000 },
    );
  });

  it('never throws for whole prices with rates up to 90', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 9_999_999_999_999n }),
        fc.option(fc.integer({ min: 0, max: 9000 }), { nil: undefined }),
        fc.constantFrom(...settlementTypes),
        fc.constantFrom(...partnerEntityTypes),
        (price, points, settlementType, partnerEntityType) => {
          const result = calculateSettlementAmounts({
            campaignPrice: price.toString(),
            settlementType,
            partnerEntityType,
            partnerCommissionRate: points === undefined ? undefined : new Decimal(points).div(100),
          });
          expect(result.payoutAmount.isInteger()).toBe(true);
          expect(result.payoutAmount.lessThanOrEqualTo(result.settlementAmount)).toBe(true);
        },
      ),
    );
  });
});

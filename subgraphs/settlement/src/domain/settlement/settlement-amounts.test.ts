import { Decimal } from 'decimal.js';
import { describe, expect, it } from 'vitest';

import { formatMoney } from '../../kernel/money/money.js';
import { formatRate } from '../../kernel/money/rate.js';
import { type SettlementAmountsInput, calculateSettlementAmounts } from './settlement-amounts.js';
import {
  type Expected,
  type PlatformCase,
  noWithholding,
  platformAmounts,
  printed,
  withheld,
} from './settlement-amounts.fixtures.js';
import {
  type PartnerEntityType,
  type SettlementType,
  partnerEntityTypes,
  settlementTypes,
} from '../../kernel/settlement-types.js';

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
      'campaign rate set': withheld('25.00', '250000.00', '750000.00', '24750.00', '725250.00'),
      'partner rate set': withheld('35.00', '350000.00', '650000.00', '21450.00', '628550.00'),
      'neither set': withheld('30.00', '300000.00', '700000.00', '23100.00', '676900.00'),
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

  const decimalRates: PlatformCase[] = [
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
      expected: withheld('25.50', '255000.00', '745000.00', '24585.00', '720415.00'),
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
      expected: withheld('22.25', '274691.00', '959876.00', '31676.00', '928200.00'),
    },
    {
      name: 'rate 33.33 on a price with cents',
      price: '999.99',
      partner: 'CORPORATE_BUSINESS',
      rate: '33.33',
      expected: noWithholding('33.33', '333.00', '666.99'),
    },
  ];
  it.each(decimalRates)('decimal rates: $name', (row) => {
    expect(platformAmounts(row)).toEqual(row.expected);
  });

  const halves: PlatformCase[] = [
    {
      name: 'commission 1005 x 10% = 100.5 becomes 101',
      price: '1005',
      partner: 'CORPORATE_BUSINESS',
      rate: '10',
      expected: noWithholding('10.00', '101.00', '904.00'),
    },
    {
      name: 'commission 100.499 stays 100',
      price: '1004.99',
      partner: 'CORPORATE_BUSINESS',
      rate: '10',
      expected: noWithholding('10.00', '100.00', '904.99'),
    },
    {
      name: 'commission 642.9 becomes 643; withholding 1500 x 3.3% = 49.5 becomes 50',
      price: '2143',
      partner: 'INDIVIDUAL',
      expected: withheld('30.00', '643.00', '1500.00', '50.00', '1450.00'),
    },
    {
      name: 'withholding 500 x 3.3% = 16.5 becomes 17',
      price: '714',
      partner: 'INDIVIDUAL',
      expected: withheld('30.00', '214.00', '500.00', '17.00', '483.00'),
    },
  ];
  it.each(halves)('halves round up: $name', (row) => {
    expect(platformAmounts(row)).toEqual(row.expected);
  });
});

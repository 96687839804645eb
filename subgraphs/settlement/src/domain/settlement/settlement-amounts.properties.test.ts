import { Decimal } from 'decimal.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { type SettlementAmountsInput, calculateSettlementAmounts } from './settlement-amounts.js';
import { InvalidSettlementAmountsError } from './settlement-errors.js';
import { partnerEntityTypes, settlementTypes } from '../../kernel/settlement-types.js';

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

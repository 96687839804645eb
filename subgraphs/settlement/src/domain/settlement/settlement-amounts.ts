import { PlatformError } from '@campaign/schema';
import { Decimal } from 'decimal.js';

import {
  type AmountInput,
  formatMoney,
  parseMoney,
  percentOf,
  roundHalfUpToWhole,
  subtractMoney,
} from '../../kernel/money/money.js';
import {
  MAX_RATE_PERCENT,
  type RateInput,
  addPercentagePoints,
  parseRate,
} from '../../kernel/money/rate.js';
import { InvalidSettlementAmountsError } from './settlement-errors.js';
import {
  type PartnerEntityType,
  type SettlementType,
  isPartnerEntityType,
  isSettlementType,
} from '../../kernel/settlement-types.js';

/** Commission rate when neither the campaign nor the partner sets one (spec 8). */
export const DEFAULT_COMMISSION_RATE = new Decimal(20);
/** Percentage points added for an INDIVIDUAL partner in PLATFORM_SETTLEMENT (spec 2.2). */
export const INDIVIDUAL_VAT_COMPENSATION_POINTS = new Decimal(10);
/** Withholding for an INDIVIDUAL partner in PLATFORM_SETTLEMENT: 3% income + 0.3% local tax. */
export const INDIVIDUAL_WITHHOLDING_TAX_RATE = new Decimal('3.3');

export interface SettlementAmountsInput {
  campaignPrice: AmountInput;
  settlementType: SettlementType;
  partnerEntityType: PartnerEntityType;
  /** Set means not null/undefined; 0 is a set rate. */
  campaignCommissionRate?: RateInput | null;
  partnerCommissionRate?: RateInput | null;
}

export interface SettlementAmounts {
  commissionRate: Decimal;
  commissionAmount: Decimal;
  settlementAmount: Decimal;
  withholdingTaxRate: Decimal;
  withholdingTaxAmount: Decimal;
  payoutAmount: Decimal;
}

/** The fee and withholding of one settlement, by spec section 2.2. */
export function calculateSettlementAmounts(input: SettlementAmountsInput): SettlementAmounts {
  const campaignPrice = parseMoney(input.campaignPrice, 'campaignPrice');
  const commissionRate = commissionRateFor(input);
  const commissionAmount = roundHalfUpToWhole(percentOf(campaignPrice, commissionRate));
  if (commissionAmount.greaterThan(campaignPrice)) {
    throw new InvalidSettlementAmountsError(
      `The commission ${formatMoney(commissionAmount)} at ${commissionRate.toString()}% would ` +
        `exceed the campaign price ${formatMoney(campaignPrice)}`,
      { commissionRate: commissionRate.toString(), campaignPrice: formatMoney(campaignPrice) },
    );
  }
  const settlementAmount = subtractMoney(campaignPrice, commissionAmount);
  const withholdingTaxRate = withholdingTaxRateFor(input.settlementType, input.partnerEntityType);
  const withholdingTaxAmount = roundHalfUpToWhole(percentOf(settlementAmount, withholdingTaxRate));
  const payoutAmount = subtractMoney(settlementAmount, withholdingTaxAmount);
  return {
    commissionRate,
    commissionAmount,
    settlementAmount,
    withholdingTaxRate,
    withholdingTaxAmount,
    payoutAmount,
  };
}

/**
 * 0 for DIRECT_INVOICE; otherwise the campaign's rate if set, else the partner's, else 20, plus
 * 10 points for an INDIVIDUAL partner. Throws INVALID_REQUEST if the result exceeds 100.
 */
export function commissionRateFor(input: Omit<SettlementAmountsInput, 'campaignPrice'>): Decimal {
  assertKnownTypes(input.settlementType, input.partnerEntityType);
  if (input.settlementType === 'DIRECT_INVOICE') return new Decimal(0);
  const base =
    input.campaignCommissionRate != null
      ? parseRate(input.campaignCommissionRate, 'campaignCommissionRate')
      : input.partnerCommissionRate != null
        ? parseRate(input.partnerCommissionRate, 'partnerCommissionRate')
        : DEFAULT_COMMISSION_RATE;
  const rate =
    input.partnerEntityType === 'INDIVIDUAL'
      ? addPercentagePoints(base, INDIVIDUAL_VAT_COMPENSATION_POINTS)
      : base;
  if (rate.greaterThan(MAX_RATE_PERCENT)) {
    throw new InvalidSettlementAmountsError(
      `The commission rate ${rate.toString()}% (${base.toString()}% plus ` +
        `${INDIVIDUAL_VAT_COMPENSATION_POINTS.toString()} points for an individual partner) ` +
        `exceeds 100%`,
      { commissionRate: rate.toString() },
    );
  }
  return rate;
}

/** 3.3 for an INDIVIDUAL partner in PLATFORM_SETTLEMENT, otherwise 0. */
export function withholdingTaxRateFor(
  settlementType: SettlementType,
  partnerEntityType: PartnerEntityType,
): Decimal {
  assertKnownTypes(settlementType, partnerEntityType);
  return settlementType === 'PLATFORM_SETTLEMENT' && partnerEntityType === 'INDIVIDUAL'
    ? INDIVIDUAL_WITHHOLDING_TAX_RATE
    : new Decimal(0);
}

function assertKnownTypes(settlementType: unknown, partnerEntityType: unknown): void {
  if (!isSettlementType(settlementType)) {
    throw new PlatformError(
      'INVALID_REQUEST',
      `Unknown settlement type: ${String(settlementType)}`,
    );
  }
  if (!isPartnerEntityType(partnerEntityType)) {
    throw new PlatformError(
      'INVALID_REQUEST',
      `Unknown partner entity type: ${String(partnerEntityType)}`,
    );
  }
}

import { formatMoney } from '../../kernel/money/money.js';
import { formatRate } from '../../kernel/money/rate.js';
import type { PartnerEntityType } from '../../kernel/settlement-types.js';
import { type SettlementAmounts, calculateSettlementAmounts } from './settlement-amounts.js';

/** Shared by the settlement-amounts tests: what they expect, printed as the database would. */

/** Expected amounts as the strings numeric(15,2) / decimal(5,2) would print. */
export interface Expected {
  rate: string;
  commission: string;
  settlement: string;
  withholdingRate: string;
  withholding: string;
  payout: string;
}

export function printed(a: SettlementAmounts): Expected {
  return {
    rate: formatRate(a.commissionRate),
    commission: formatMoney(a.commissionAmount),
    settlement: formatMoney(a.settlementAmount),
    withholdingRate: formatRate(a.withholdingTaxRate),
    withholding: formatMoney(a.withholdingTaxAmount),
    payout: formatMoney(a.payoutAmount),
  };
}

export function noWithholding(rate: string, commission: string, settlement: string): Expected {
  return {
    rate,
    commission,
    settlement,
    withholdingRate: '0.00',
    withholding: '0.00',
    payout: settlement,
  };
}

/** An INDIVIDUAL partner's platform amounts: 3.3 % withheld from the settlement amount. */
export function withheld(
  rate: string,
  commission: string,
  settlement: string,
  withholding: string,
  payout: string,
): Expected {
  return { rate, commission, settlement, withholdingRate: '3.30', withholding, payout };
}

/** A PLATFORM_SETTLEMENT case: a price, a partner type and an optional campaign rate. */
export interface PlatformCase {
  name: string;
  price: string;
  partner: PartnerEntityType;
  rate?: string;
  expected: Expected;
}

/** The printed amounts of a {@link PlatformCase}. */
export function platformAmounts({ price, partner, rate }: PlatformCase): Expected {
  return printed(
    calculateSettlementAmounts({
      campaignPrice: price,
      settlementType: 'PLATFORM_SETTLEMENT',
      partnerEntityType: partner,
      campaignCommissionRate: rate,
    }),
  );
}

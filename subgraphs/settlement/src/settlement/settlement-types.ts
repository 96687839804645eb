/**
 * The settlement enumerations, each as a const object (for GraphQL and ORM enum registration)
 * and a union type of the same name.
 */

export const SettlementType = {
  PLATFORM_SETTLEMENT: 'PLATFORM_SETTLEMENT',
  DIRECT_INVOICE: 'DIRECT_INVOICE',
} as const;
export type SettlementType = (typeof SettlementType)[keyof typeof SettlementType];
export const settlementTypes: readonly SettlementType[] = Object.values(SettlementType);

export const PartnerEntityType = {
  CORPORATE_BUSINESS: 'CORPORATE_BUSINESS',
  INDIVIDUAL_BUSINESS: 'INDIVIDUAL_BUSINESS',
  INDIVIDUAL: 'INDIVIDUAL',
} as const;
export type PartnerEntityType = (typeof PartnerEntityType)[keyof typeof PartnerEntityType];
export const partnerEntityTypes: readonly PartnerEntityType[] = Object.values(PartnerEntityType);

export const SettlementStatus = {
  SETTLEMENT_PENDING: 'SETTLEMENT_PENDING',
  AWAITING_ADVERTISER_PAYMENT: 'AWAITING_ADVERTISER_PAYMENT',
  ADVERTISER_PAID: 'ADVERTISER_PAID',
  PARTNER_PAYOUT_PROCESSING: 'PARTNER_PAYOUT_PROCESSING',
  SETTLEMENT_COMPLETED: 'SETTLEMENT_COMPLETED',
  SETTLEMENT_CANCELLED: 'SETTLEMENT_CANCELLED',
} as const;
export type SettlementStatus = (typeof SettlementStatus)[keyof typeof SettlementStatus];
export const settlementStatuses: readonly SettlementStatus[] = Object.values(SettlementStatus);

export function isSettlementType(value: unknown): value is SettlementType {
  return (settlementTypes as readonly unknown[]).includes(value);
}

export function isPartnerEntityType(value: unknown): value is PartnerEntityType {
  return (partnerEntityTypes as readonly unknown[]).includes(value);
}

/**
 * The settlement enumerations, each as a const object (for GraphQL and ORM enum registration)
 * and a union type of the same name.
 */
import { enumOf, type EnumValue } from './enums.js';

export const settlementTypes = ['PLATFORM_SETTLEMENT', 'DIRECT_INVOICE'] as const;
export const SettlementType = enumOf(settlementTypes);
export type SettlementType = EnumValue<typeof SettlementType>;

export const partnerEntityTypes = [
  'CORPORATE_BUSINESS',
  'INDIVIDUAL_BUSINESS',
  'INDIVIDUAL',
] as const;
export const PartnerEntityType = enumOf(partnerEntityTypes);
export type PartnerEntityType = EnumValue<typeof PartnerEntityType>;

/** In the order a settlement moves through them. */
export const settlementStatuses = [
  'SETTLEMENT_PENDING',
  'AWAITING_ADVERTISER_PAYMENT',
  'ADVERTISER_PAID',
  'PARTNER_PAYOUT_PROCESSING',
  'SETTLEMENT_COMPLETED',
  'SETTLEMENT_CANCELLED',
] as const;
export const SettlementStatus = enumOf(settlementStatuses);
export type SettlementStatus = EnumValue<typeof SettlementStatus>;

export function isSettlementType(value: unknown): value is SettlementType {
  return (settlementTypes as readonly unknown[]).includes(value);
}

export function isPartnerEntityType(value: unknown): value is PartnerEntityType {
  return (partnerEntityTypes as readonly unknown[]).includes(value);
}

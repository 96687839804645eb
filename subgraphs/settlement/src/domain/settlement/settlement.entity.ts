import { EntityRepositoryType, OptionalProps, PrimaryKey, Property } from '@mikro-orm/core';
import type { Decimal } from 'decimal.js';
import { Field, ID, registerEnumType } from 'type-graphql';
import { SettlementStatus, SettlementType } from '../../kernel/settlement-types.js';
import {
  CreatedAtColumn,
  IdNumberColumn,
  EnumColumn,
  ExposedEntity,
  MoneyColumn,
  OptionalDateColumn,
  OptionalRefColumn,
  OptionalTextColumn,
  RefColumn,
  UpdatedAtColumn,
} from '../../kernel/entity-columns.js';
import { SettlementRepository } from './settlement.repository.js';

registerEnumType(SettlementStatus, { name: 'SettlementStatus' });

/** The settlement of one campaign, field for field as spec section 2.3. */
@ExposedEntity({ tableName: 'settlement', repository: () => SettlementRepository })
export class Settlement {
  /** Set by the database or on create: a create need not give them. */
  [OptionalProps]?: 'createdAt' | 'updatedAt' | 'idNumber';

  [EntityRepositoryType]?: SettlementRepository;

  @Field(() => ID, { description: 'SET<n>' }) @PrimaryKey({ type: 'text' }) id!: string;
  @Field(() => ID)
  @Property({ type: 'string', length: 20, fieldName: 'campaign_id' })
  campaignId!: string;
  @RefColumn('partner_id') partnerId!: string;
  @OptionalRefColumn('agency_id', 'null means the default agency') agencyId!: string | null;

  @MoneyColumn('campaign_price') campaignPrice!: Decimal;
  @MoneyColumn('commission_rate') commissionRate!: Decimal;
  @MoneyColumn('commission_amount') commissionAmount!: Decimal;
  @MoneyColumn('settlement_amount') settlementAmount!: Decimal;
  @MoneyColumn('withholding_tax_rate') withholdingTaxRate!: Decimal;
  @MoneyColumn('withholding_tax_amount') withholdingTaxAmount!: Decimal;
  @MoneyColumn('payout_amount') payoutAmount!: Decimal;

  @EnumColumn(SettlementStatus) status!: SettlementStatus;
  @EnumColumn(SettlementType, 'settlement_type') settlementType!: SettlementType;

  @OptionalRefColumn('advertiser_invoice_id') advertiserInvoiceId!: string | null;
  @OptionalRefColumn('partner_payout_id') partnerPayoutId!: string | null;

  @OptionalDateColumn('invoice_issued_at') invoiceIssuedAt!: Date | null;
  @OptionalDateColumn('invoice_paid_at') invoicePaidAt!: Date | null;
  @OptionalDateColumn('partner_invoice_received_at') partnerInvoiceReceivedAt!: Date | null;

  @OptionalTextColumn('bank_name') bankName!: string | null;
  @OptionalTextColumn('account_number') accountNumber!: string | null;
  @OptionalTextColumn('account_holder') accountHolder!: string | null;

  @OptionalDateColumn('requested_at') requestedAt!: Date | null;
  @OptionalDateColumn('processed_at') processedAt!: Date | null;
  @OptionalDateColumn('completed_at') completedAt!: Date | null;
  @OptionalTextColumn('admin_notes') adminNotes!: string | null;

  /**
   * Optimistic lock (DESIGN S2): every change claims the version it read
   * ({@link SettlementRepository.claim}); of two concurrent changes exactly one wins. Not the
   * ORM's `version: true`: the claim is the one mechanism, taken before anything is written.
   */
  @Property({ type: 'integer' }) version!: number;

  @IdNumberColumn() idNumber!: string;

  @CreatedAtColumn() createdAt!: Date;
  @UpdatedAtColumn() updatedAt!: Date;
}

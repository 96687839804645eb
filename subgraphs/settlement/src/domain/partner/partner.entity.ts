import type { Decimal } from 'decimal.js';
import { registerEnumType } from 'type-graphql';
import {
  EnumColumn,
  ExposedEntity,
  OptionalMoneyColumn,
  OptionalTextColumn,
  SerialIdColumn,
  TextColumn,
} from '../../kernel/entity-columns.js';
import { PartnerEntityType } from '../../kernel/settlement-types.js';

registerEnumType(PartnerEntityType, { name: 'PartnerEntityType' });

@ExposedEntity(
  { tableName: 'partner' },
  'A media partner: uploads content, receives the payout (spec 2.1).',
)
export class Partner {
  @SerialIdColumn() id!: string;

  @TextColumn() name!: string;

  @EnumColumn(PartnerEntityType, 'entity_type') entityType!: PartnerEntityType;

  @OptionalMoneyColumn('commission_rate', 'Percent; null means the default.')
  commissionRate!: Decimal | null;

  @TextColumn() email!: string;

  @OptionalTextColumn(
    'business_number',
    'Business registration number (10 digits); the reverse issuance needs it',
  )
  businessNumber!: string | null;

  @OptionalTextColumn('bank_name') bankName!: string | null;
  @OptionalTextColumn('account_number') accountNumber!: string | null;
  @OptionalTextColumn('account_holder') accountHolder!: string | null;

  /** The partner's social account id in the lens subgraph; resolved as `account` by federation. */
  @OptionalTextColumn('account_id') accountId!: string | null;
}

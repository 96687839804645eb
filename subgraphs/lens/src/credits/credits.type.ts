import { Field, ID, Int, ObjectType } from 'type-graphql';
import { GraphQLDateTimeISO } from 'graphql-scalars';
import type { LedgerKind } from './credit-ledger-entry.entity.js';

@ObjectType('CreditLedgerEntry', {
  description:
    'One balance movement: TOP_UP (+), RESERVE (-reserved at start), RELEASE (+reserved at the end), CHARGE (-charged).',
})
export class CreditLedgerEntryType {
  @Field(() => ID) id!: string;
  @Field(() => String) kind!: LedgerKind;
  @Field(() => Int, { description: 'Signed: negative takes from the balance.' }) amount!: number;
  @Field(() => Int) balanceAfter!: number;
  @Field(() => ID, { nullable: true }) operationId!: string | null;
  @Field(() => String, { nullable: true, description: 'Why credits were added (top-ups).' })
  reason!: string | null;
  @Field(() => GraphQLDateTimeISO) createdAt!: Date;
}

@ObjectType({ description: 'One page of ledger entries; pass nextCursor as `after` for the next.' })
export class CreditLedgerPage {
  @Field(() => [CreditLedgerEntryType]) items!: CreditLedgerEntryType[];
  @Field(() => String, { nullable: true }) nextCursor!: string | null;
}

import { Field, Int, ObjectType } from 'type-graphql';

@ObjectType({
  description:
    'A lens data operation the caller may call in this deployment, with its price in force.',
})
export class AvailableOperation {
  @Field({ description: 'The operationName of lens spec section 4, e.g. accounts.profile.' })
  name!: string;

  @Field(() => Int, { description: 'Credits per call.' })
  priceBase!: number;

  @Field(() => Int, { description: 'Credits per delivered item (0: not a list).' })
  pricePerItem!: number;
}

import { Directive, Field, ID, ObjectType } from 'type-graphql';

/** The lens subgraph's Account, referenced by id; the lens subgraph resolves its fields. */
@Directive('@key(fields: "accountId", resolvable: false)')
@ObjectType('Account')
export class AccountReference {
  @Field(() => ID) accountId!: string;
}

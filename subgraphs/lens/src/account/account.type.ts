import { Directive, Field, ID, Int, ObjectType } from 'type-graphql';
import { GraphQLDateTimeISO } from 'graphql-scalars';
import type { AccountObservation } from './account-observation.entity.js';

/**
 * A social account as last observed by the lens subgraph. Other subgraphs reference it by
 * `accountId`; resolving it reads stored observations and spends no credits.
 */
@Directive('@key(fields: "accountId")')
@ObjectType()
export class Account {
  @Field(() => ID) accountId!: string;
  @Field(() => String, { nullable: true }) handle!: string | null;
  @Field(() => String, { nullable: true }) displayName!: string | null;
  @Field(() => String, { nullable: true }) biography!: string | null;
  @Field(() => Boolean, { nullable: true }) isPrivate!: boolean | null;
  @Field(() => Boolean, { nullable: true }) isVerified!: boolean | null;
  @Field(() => Int, { nullable: true }) followerCount!: number | null;
  @Field(() => Int, { nullable: true }) followingCount!: number | null;
  @Field(() => Int, { nullable: true }) postCount!: number | null;
  @Field(() => String, { nullable: true }) category!: string | null;
  @Field(() => GraphQLDateTimeISO, {
    nullable: true,
    description: 'When this account was observed; null if never.',
  })
  observedAt!: Date | null;

  static fromObservation(accountId: string, observation: AccountObservation | null): Account {
    const s = observation?.summary;
    return Object.assign(new Account(), {
      accountId,
      handle: s?.handle ?? null,
      displayName: s?.displayName ?? null,
      biography: s?.biography ?? null,
      isPrivate: s?.isPrivate ?? null,
      isVerified: s?.isVerified ?? null,
      followerCount: s?.followerCount ?? null,
      followingCount: s?.followingCount ?? null,
      postCount: s?.postCount ?? null,
      category: s?.category ?? null,
      observedAt: observation?.observedAt ?? null,
    });
  }
}

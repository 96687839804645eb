import { GraphQLDateTimeISO } from 'graphql-scalars';
import {
  Arg,
  Args,
  Authorized,
  Ctx,
  Field,
  ID,
  Int,
  Mutation,
  ObjectType,
  Query,
  registerEnumType,
  Resolver,
} from 'type-graphql';
import { IdArg } from './id-arg.js';
import { ADMIN_ROLES } from '../kernel/principal.js';
import type { SettlementContext } from './context.js';
import { PageArgs, PageOf } from '../kernel/graphql-page.js';
import type { OutboxChannel } from '../journal/outbox/outbox.js';
import type { OutboxStatus } from '../journal/outbox/outbox-admin.js';

const OutboxChannelEnum = {
  EMAIL: 'EMAIL',
  TEAM_CHAT: 'TEAM_CHAT',
  TAX_INVOICE_PROVIDER: 'TAX_INVOICE_PROVIDER',
} as const satisfies Record<OutboxChannel, OutboxChannel>;
registerEnumType(OutboxChannelEnum, { name: 'OutboxChannel' });

const OutboxStatusEnum = {
  PENDING: 'PENDING',
  SENT: 'SENT',
  DEAD: 'DEAD',
} as const satisfies Record<OutboxStatus, OutboxStatus>;
registerEnumType(OutboxStatusEnum, {
  name: 'OutboxStatus',
  valuesConfig: {
    PENDING: { description: 'Waiting for its (next) attempt' },
    SENT: { description: 'Accepted by the outside system' },
    DEAD: { description: 'Delivery gave up; an admin may re-queue it' },
  },
});

@ObjectType({
  description:
    'One notification or provider request of the outbox (DESIGN S10) and its delivery state',
})
export class OutboxMessage {
  @Field(() => ID) id!: string;
  @Field({ description: 'SETTLEMENT_STATUS_CHANGED, PAYMENT_REQUEST_ADVERTISER, ...' })
  event!: string;
  @Field(() => OutboxChannelEnum) channel!: OutboxChannel;
  @Field({ description: 'E-mail address, settlement-team, or tax-invoice-provider' })
  recipient!: string;
  @Field(() => ID, { nullable: true }) settlementId!: string | null;
  @Field({ description: 'One per event occurrence; e-mails derive their Message-ID from it' })
  dedupeKey!: string;
  @Field(() => OutboxStatusEnum) status!: OutboxStatus;
  @Field(() => Int, { description: 'Attempts since it was written or last re-queued' })
  attempts!: number;
  @Field(() => String, { nullable: true }) lastError!: string | null;
  @Field(() => GraphQLDateTimeISO) createdAt!: Date;
  @Field(() => GraphQLDateTimeISO, { description: 'When the next attempt may start' })
  availableAt!: Date;
  @Field(() => GraphQLDateTimeISO, { nullable: true }) lastAttemptAt!: Date | null;
  @Field(() => GraphQLDateTimeISO, { nullable: true }) sentAt!: Date | null;
  @Field(() => GraphQLDateTimeISO, { nullable: true }) deadAt!: Date | null;
}

@ObjectType({ description: 'A page of outbox messages, newest first' })
export class OutboxMessagePage extends PageOf(OutboxMessage, 'All messages that match') {}

/** Admins watch delivery: what gave up, and a new round of attempts once the cause is fixed. */
@Resolver()
export class OutboxResolver {
  @Authorized(ADMIN_ROLES)
  @Query(() => OutboxMessagePage, {
    description:
      'Messages whose delivery gave up (DEAD), newest first; an agency admin sees those of its ' +
      "agency's settlements",
  })
  async deadOutboxMessages(
    @Ctx() ctx: SettlementContext,
    @Arg('settlementId', () => ID, { nullable: true }) settlementId: string | undefined,
    @Args(() => PageArgs) { cursor, limit }: PageArgs,
  ) {
    return ctx.services.outbox.dead(ctx.em, await ctx.principal(), {
      settlementId: settlementId ?? null,
      cursor: cursor ?? null,
      limit: limit ?? null,
    });
  }

  @Authorized(ADMIN_ROLES)
  @Mutation(() => OutboxMessage, {
    description:
      'Sends a DEAD message again: PENDING with a new round of attempts, due now (409 CONFLICT ' +
      'unless it is DEAD)',
  })
  async requeueOutboxMessage(@IdArg() id: string, @Ctx() ctx: SettlementContext) {
    return ctx.services.outbox.requeue(ctx.em, await ctx.principal(), id);
  }
}

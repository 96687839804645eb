import { Field, ID, Int, InputType, ObjectType, ArgsType, type ClassType } from 'type-graphql';
import { DEFAULT_LIMIT, MAX_LIMIT, type Page } from './paging.js';

/** The GraphQL shapes every paged list shares: its arguments, its page type, its common filter. */

/**
 * `limit` and `cursor`, the paging arguments of every list of the subgraph (paging.ts reads them).
 * Declared in the order the committed SDL has always listed them.
 */
@ArgsType()
export class PageArgs {
  @Field(() => Int, { nullable: true, description: `1 to ${MAX_LIMIT}, default ${DEFAULT_LIMIT}` })
  limit?: number;
  @Field(() => String, { nullable: true }) cursor?: string;
}

/**
 * The GraphQL shape of a `Page` of `item` (paging.ts); a list's page type extends it with its own
 * name and description: `class AgencyPage extends PageOf(Agency, 'All agencies that match') {}`.
 */
export function PageOf<T extends object>(item: ClassType<T>, totalDescription: string) {
  @ObjectType()
  abstract class PageOfItems implements Page<T> {
    @Field(() => [item]) items!: T[];
    @Field(() => String, { nullable: true, description: 'Opaque; null on the last page' })
    nextCursor!: string | null;
    @Field(() => Int, { description: totalDescription }) total!: number;
  }
  return PageOfItems;
}

/**
 * The filters the admin lists of `rows` (settlements, quotations) share: the agency and the
 * creation period, read by list-args.ts `dateBound`. A list's filter extends it with its own.
 */
export function AgencyPeriodFilter(rows: string) {
  @InputType()
  abstract class AgencyPeriodFilterOf {
    @Field(() => ID, {
      nullable: true,
      description: `The default agency id also matches ${rows} whose agencyId is null`,
    })
    agencyId?: string | null;
    @Field(() => String, {
      nullable: true,
      description: 'createdAt from: an ISO date (Asia/Seoul day) or date-time with offset',
    })
    from?: string | null;
    @Field(() => String, {
      nullable: true,
      description: 'createdAt to (inclusive): an ISO date (Asia/Seoul day) or date-time',
    })
    to?: string | null;
  }
  return AgencyPeriodFilterOf;
}

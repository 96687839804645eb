import {
  Arg,
  Args,
  ArgsType,
  Authorized,
  Ctx,
  Field,
  ID,
  Int,
  InputType,
  ObjectType,
  Query,
  Resolver,
  type ClassType,
} from 'type-graphql';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Principal, Role } from './auth/principal.js';
import type { SettlementContext } from './context.js';
import type { SettlementServices } from './services.js';
import { DEFAULT_LIMIT, MAX_LIMIT, type Page } from './paging.js';

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

/** A domain service's paged list (the filter, then `cursor` and `limit`, as PageArgs). */
export interface ListService<T, F> {
  list(
    em: EntityManager,
    principal: Principal,
    filter: F | undefined,
    cursor: string | undefined,
    limit: number | undefined,
  ): Promise<Page<T>>;
}

/** A domain service's row by id: only one the principal may see, else 404 (S9). */
export interface GetService<T> {
  get(em: EntityManager, principal: Principal, id: string): Promise<T>;
}

/** A query: its GraphQL field (DESIGN.md 5), its description (the REST path), its service. */
type Read<S> = [name: string, description: string, service: (services: SettlementServices) => S];

/**
 * The list and get queries of a domain, declared once: its resolver extends
 * `ReadResolver(Item, ItemPage, ItemFilter, {...})` and adds its own operations (type-graphql's
 * resolver inheritance). Both are thin: the caller's principal and the arguments go to a service.
 */
export function ReadResolver<T extends object, F extends object>(
  item: ClassType<T>,
  page: ClassType<Page<T>>,
  filter: ClassType<F>,
  reads: { roles: readonly Role[]; list: Read<ListService<T, F>>; get: Read<GetService<T>> },
) {
  const [listName, listDescription, lists] = reads.list;
  const [getName, getDescription, gets] = reads.get;

  @Resolver()
  abstract class ReadResolverBase {
    @Authorized(reads.roles)
    @Query(() => page, { name: listName, description: listDescription })
    async list(
      @Ctx() ctx: SettlementContext,
      @Arg('filter', () => filter, { nullable: true }) filterArg: F | undefined,
      @Args(() => PageArgs) { cursor, limit }: PageArgs,
    ): Promise<Page<T>> {
      return lists(ctx.services).list(ctx.em, await ctx.principal(), filterArg, cursor, limit);
    }

    @Authorized(reads.roles)
    @Query(() => item, { name: getName, description: getDescription })
    async get(@Arg('id', () => ID) id: string, @Ctx() ctx: SettlementContext): Promise<T> {
      return gets(ctx.services).get(ctx.em, await ctx.principal(), id);
    }
  }
  return ReadResolverBase;
}

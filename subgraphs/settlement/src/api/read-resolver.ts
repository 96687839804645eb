import type { GraphQLResolveInfo } from 'graphql';
import { Arg, Args, Authorized, Ctx, Info, Query, Resolver, type ClassType } from 'type-graphql';
import { IdArg } from './id-arg.js';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Principal, Role } from '../kernel/principal.js';
import type { SettlementContext, SettlementServices } from './context.js';
import type { Page } from '../kernel/paging.js';
import { PageArgs } from '../kernel/graphql-page.js';
import { selectedFields } from './selected-fields.js';

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
 * Loads the related rows that the answer's selection names (`selected`: the item's fields) for
 * all its rows at once, before graphql completes them (settlement-relations.ts).
 */
type Related<R> = (
  ctx: SettlementContext,
  principal: Principal,
  rows: readonly R[],
  selected: ReadonlySet<string>,
) => Promise<void>;

/**
 * One row by id with the related rows the answer's selection names, read together (a
 * settlement's detail, settlement-relations.ts): replaces `get` and `related` for the get query.
 */
type Detail<R> = (
  ctx: SettlementContext,
  principal: Principal,
  id: string,
  selected: ReadonlySet<string>,
) => Promise<R>;

/**
 * The list and get queries of a domain, declared once: its resolver extends
 * `ReadResolver(Item, ItemPage, ItemFilter, {...})` and adds its own operations (type-graphql's
 * resolver inheritance). Both are thin: the caller's principal and the arguments go to a service.
 * The services may answer with `R`, any shape with the item's fields (the settlements' stored
 * rows, issue 27), not only the item's class.
 */
export function ReadResolver<T extends object, F extends object, R extends object = T>(
  item: ClassType<T>,
  page: ClassType<Page<T>>,
  filter: ClassType<F>,
  reads: {
    roles: readonly Role[];
    list: Read<ListService<R, F>>;
    get: Read<GetService<R>>;
    related?: Related<R>;
    detail?: Detail<R>;
  },
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
      @Info() info: GraphQLResolveInfo,
    ): Promise<Page<R>> {
      const principal = await ctx.principal();
      const page = await lists(ctx.services).list(ctx.em, principal, filterArg, cursor, limit);
      await reads.related?.(ctx, principal, page.items, selectedFields(info, 'items'));
      return page;
    }

    @Authorized(reads.roles)
    @Query(() => item, { name: getName, description: getDescription })
    async get(
      @IdArg() id: string,
      @Ctx() ctx: SettlementContext,
      @Info() info: GraphQLResolveInfo,
    ): Promise<R> {
      const principal = await ctx.principal();
      if (reads.detail) return reads.detail(ctx, principal, id, selectedFields(info));
      const row = await gets(ctx.services).get(ctx.em, principal, id);
      await reads.related?.(ctx, principal, [row], selectedFields(info));
      return row;
    }
  }
  return ReadResolverBase;
}

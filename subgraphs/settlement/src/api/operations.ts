import { Arg, Authorized, Ctx, Mutation, Query, Resolver, type ClassType } from 'type-graphql';
import { IdArg } from './id-arg.js';
import type { Role } from '../kernel/principal.js';
import type { SettlementContext } from './context.js';

/**
 * One query or mutation of a table: what it returns, its description (the REST path it stands
 * for), an `id: ID!` argument or not, one named argument (`input`, `code`) or none, and what it
 * runs: a single call to a service. Method syntax for `run` so that a row typed for its own body
 * fits the table.
 */
/** A resolver class to build on, abstract or not. */
type Base = abstract new (...args: never[]) => object;

export interface Operation<I = unknown> {
  /** What it returns; the table's `returns` when not given. */
  returns?: () => ClassType | [ClassType];
  query?: boolean;
  roles?: readonly Role[];
  description?: string;
  id?: boolean;
  arg?: [name: string, type: () => (new () => I) | StringConstructor, options?: { nullable: true }];
  run(ctx: SettlementContext, id: string, arg: I): Promise<unknown>;
}

/** A row typed by its argument (inferred from `arg`), for a table of rows with different bodies. */
export const operation = <I>(row: Operation<I>): Operation => row;

/** What a table's rows have unless a row says otherwise: who may run them, what they return. */
export interface OperationDefaults {
  roles: readonly Role[];
  returns?: Operation['returns'];
}

/**
 * The thin operations of a resolver, declared as a table: `class XResolver extends
 * operations(Base, defaults, {...})` gets one method per row, decorated as a class body would
 * decorate it (type-graphql lists fields in the order decorators run, and arguments last to
 * first: `update(input, id)`, as the published SDL always had them).
 */
export function operations(
  base: Base,
  defaults: OperationDefaults,
  rows: Record<string, Operation>,
) {
  @Resolver()
  abstract class Operations extends base {}
  const prototype = Operations.prototype as object;
  for (const [name, row] of Object.entries(rows)) {
    // type-graphql passes the arguments by position, without gaps: the context, `id`, `arg`.
    const method = (ctx: SettlementContext, ...values: unknown[]) =>
      row.id ? row.run(ctx, String(values[0]), values[1]) : row.run(ctx, '', values[0]);
    Object.defineProperty(prototype, name, { value: method, writable: true });
    const descriptor = Object.getOwnPropertyDescriptor(prototype, name)!;
    if (row.arg) Arg(...row.arg)(prototype, name, row.id ? 2 : 1);
    if (row.id) IdArg()(prototype, name, 1);
    Ctx()(prototype, name, 0);
    Authorized(row.roles ?? defaults.roles)(prototype, name, descriptor);
    const returns = row.returns ?? defaults.returns;
    if (!returns) throw new Error(`operation ${name}: no return type, in the row or the table`);
    const kind = row.query ? Query : Mutation;
    kind(returns, { description: row.description })(prototype, name, descriptor);
  }
  return Operations;
}

/** The base of a resolver with no inherited reads. */
@Resolver()
export abstract class NoReads {}

import type { z } from 'zod';
import { PlatformError } from '@campaign/schema';
import type { LensOperationContract } from '@campaign/schema';
import type { AccountSummary, SocialUpstream } from '../upstream/upstream.port.js';

export interface Price {
  /** Credits for one call. */
  base: number;
  /** Credits per delivered item, for list operations. */
  perItem: number;
}

export interface ExecutionResult {
  data: Record<string, unknown>;
  /** Items delivered, for the per-item part of the charge. */
  itemCount: number;
  /** Accounts seen in the result, stored as observations for federation. */
  observedAccounts: AccountSummary[];
}

export interface ExecutionContext {
  upstream: SocialUpstream;
  tenantId: string;
}

/**
 * One lens operation as the engine runs it: its contract (name, paths, input rules: the
 * `@campaign/schema` side, shared with REST and the document) and what only lens knows: its
 * price, the most items it can deliver (the reservation's upper bound) and how to fetch.
 * Methods, not function properties: a definition of any input type is an `OperationDefinition`.
 */
export interface OperationDefinition<I = unknown> {
  contract: LensOperationContract;
  name: string;
  /** The default price; LENS_PRICES may override it per deployment (operation/prices.ts). */
  price: Price;
  /** The input with defaults applied; a 400 naming the field when it breaks a rule. */
  parseInput(raw: unknown): I;
  /**
   * Optional checks that need the caller's tenant (e.g. a paging cursor bound to it), run after
   * authentication and before anything is reserved; throws a PlatformError (400) to refuse.
   */
  validate?(input: I, context: { tenantId: string }): void;
  maxItems(input: I): number;
  execute(input: I, context: ExecutionContext): Promise<ExecutionResult>;
}

/** GraphQL clients send null for "not given"; so does the stored input (cursor: null). */
function withoutNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutNulls);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([, v]) => v !== null && v !== undefined)
      .map(([k, v]) => [k, withoutNulls(v)]),
  );
}

/**
 * Reads operation input with the contract's rules (REST's exact rules: the adapter has already
 * checked a REST body against the document they are published as). Any problem is a 400 naming
 * the field.
 */
export function parseOperationInput<S extends z.ZodType>(schema: S, raw: unknown): z.output<S> {
  // type-graphql hands over class instances; withoutNulls also makes them plain objects.
  const result = schema.safeParse(withoutNulls(raw));
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const where = issue.path.length ? issue.path.join('.') : 'body';
  throw new PlatformError('INVALID_REQUEST', `${where}: ${issue.message}`);
}

/** A definition whose input is read with its contract's schema. */
export function defineOperation<S extends z.ZodType>(
  contract: LensOperationContract<S>,
  parts: Pick<OperationDefinition<z.output<S>>, 'price' | 'maxItems' | 'execute'>,
): OperationDefinition<z.output<S>> {
  return {
    contract,
    name: contract.name,
    price: parts.price,
    parseInput: (raw) => parseOperationInput(contract.input, raw),
    maxItems: parts.maxItems,
    execute: parts.execute,
  };
}

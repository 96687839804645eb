import type { SocialUpstream, AccountSummary } from '../upstream/upstream.port.js';

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
 * What one lens operation supplies to the engine: how to read and default its input, its price
 * and the most items it can deliver (the reservation's upper bound), and how to fetch.
 */
export interface OperationDefinition<I = Record<string, unknown>> {
  name: string;
  /** The default price; LENS_PRICES may override it per deployment (operation/prices.ts). */
  price: Price;
  parseInput(raw: unknown): I;
  /**
   * Optional checks that need the caller's tenant (e.g. a paging cursor bound to it), run after
   * authentication and before anything is reserved; throws a PlatformError (400) to refuse.
   */
  validate?(input: I, context: { tenantId: string }): void;
  maxItems(input: I): number;
  execute(input: I, context: ExecutionContext): Promise<ExecutionResult>;
}

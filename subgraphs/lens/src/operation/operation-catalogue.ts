import type { LensOperations } from '../account/lens-operations.js';
import type { TenantProfile } from '../tenant/tenant.service.js';
import type { AccessPolicy } from './access-policy.js';
import type { Price } from './operation-definition.js';
import type { PriceBook } from './prices.js';

export interface OfferedOperation {
  name: string;
  price: Price;
}

/**
 * What a tenant is offered in this deployment: the operations the access policy lets it call (not
 * switched off, in its plan and permissions), with the prices in force (LENS_PRICES applied). The
 * MCP front lists its tools from this (issue 13), so the rules stay the engine's own.
 */
export class OperationCatalogue {
  constructor(
    private readonly definitions: LensOperations,
    private readonly access: AccessPolicy,
    private readonly prices: PriceBook,
  ) {}

  /** In the order of lens spec section 4. */
  offeredTo(tenant: TenantProfile): OfferedOperation[] {
    return [...this.definitions.values()]
      .filter((definition) => this.access.permits(tenant, definition.name))
      .map((definition) => ({ name: definition.name, price: this.prices.of(definition) }));
  }
}

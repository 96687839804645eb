import type { OperationDefinition, Price } from './operation-definition.js';

export type PriceOverrides = Record<
  string,
  { base?: number | undefined; perItem?: number | undefined }
>;

/**
 * The price of every operation: the default each definition declares (the table in
 * docs/lens-engine.md), overridden per deployment by LENS_PRICES.
 */
export class PriceBook {
  constructor(private readonly overrides: PriceOverrides = {}) {}

  /** Fails at start when LENS_PRICES names an operation that does not exist. */
  static checked(overrides: PriceOverrides, known: Iterable<string>): PriceBook {
    const names = new Set(known);
    const unknown = Object.keys(overrides).filter((name) => !names.has(name));
    if (unknown.length)
      throw new Error(`LENS_PRICES names unknown operations: ${unknown.join(', ')}`);
    return new PriceBook(overrides);
  }

  of(definition: Pick<OperationDefinition, 'name' | 'price'>): Price {
    const override = Object.hasOwn(this.overrides, definition.name)
      ? this.overrides[definition.name]
      : undefined;
    return {
      base: override?.base ?? definition.price.base,
      perItem: override?.perItem ?? definition.price.perItem,
    };
  }

  /** The upper bound reserved at start (DESIGN.md L3). */
  reservation<I>(definition: OperationDefinition<I>, input: I): number {
    const price = this.of(definition);
    return price.base + price.perItem * definition.maxItems(input);
  }
}

/** What a delivery of `itemCount` items costs at `price`, never more than was reserved. */
export function chargeAt(price: Price, itemCount: number, reserved: number): number {
  return Math.min(reserved, price.base + price.perItem * itemCount);
}

import DataLoader from 'dataloader';

/**
 * A DataLoader that also answers at once for the keys it has loaded (issue 27): a field whose
 * row a page prefetched (settlement-relations.ts) returns its value, not a promise, so graphql
 * completes the row without a promise per row and per field (`promiseForObject`, the microtasks
 * and async hooks that were a tenth of the settlement list's CPU). A key is kept only once its
 * batch succeeded, as DataLoader's own cache keeps it: a failed batch is loaded again.
 */
export class SettledLoader<V> extends DataLoader<string, V> {
  private readonly settled: Map<string, V>;

  constructor(batch: (keys: readonly string[]) => Promise<V[]>) {
    const settled = new Map<string, V>();
    super(async (keys) => {
      const values = await batch(keys);
      keys.forEach((key, index) => settled.set(key, values[index]!));
      return values;
    });
    this.settled = settled;
  }

  /** Keeps `value` as `key`'s, read elsewhere (a detail's one statement): answered at once. */
  settle(key: string, value: V): void {
    this.settled.set(key, value);
    this.clear(key).prime(key, value);
  }

  /** The value of `key` if it is loaded already, else its load. */
  settledOrLoad(key: string): V | Promise<V> {
    return this.settled.has(key) ? this.settled.get(key)! : this.load(key);
  }
}

/**
 * What a simulated sink received, oldest first, in memory. Bounded so that a long-running
 * development stack cannot grow without end; the oldest are dropped first.
 */
export class MessageStore<T> {
  private items: T[] = [];

  constructor(private readonly limit: number) {}

  add(item: T): void {
    this.items.push(item);
    if (this.items.length > this.limit) this.items.splice(0, this.items.length - this.limit);
  }

  /** Newest first, those that pass `keep`. */
  newestFirst(keep: (item: T) => boolean = () => true): T[] {
    return this.items.filter(keep).reverse();
  }

  clear(): void {
    this.items = [];
  }

  get size(): number {
    return this.items.length;
  }
}

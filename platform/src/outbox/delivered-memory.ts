/**
 * Messages this process handed to their outside system whose SENT was not recorded yet. When the
 * database fails between the two, the next attempt in this process (its lease is its own to take
 * again) records the delivery instead of sending again: the common case of a lost
 * acknowledgement. Bounded and short-lived: it only has to outlive a database outage, and another
 * replica does not share it (that one sends again, with the same Message-ID or issuance key).
 */
export class DeliveredMemory {
  private readonly entries = new Map<string, number>();

  constructor(
    private readonly ttlMs = 6 * 60 * 60 * 1000,
    private readonly limit = 10_000,
  ) {}

  remember(dedupeKey: string): void {
    this.entries.delete(dedupeKey);
    this.entries.set(dedupeKey, Date.now() + this.ttlMs);
    // Oldest first (Map keeps insertion order).
    for (const key of this.entries.keys()) {
      if (this.entries.size <= this.limit) break;
      this.entries.delete(key);
    }
  }

  has(dedupeKey: string): boolean {
    const until = this.entries.get(dedupeKey);
    if (until === undefined) return false;
    if (until > Date.now()) return true;
    this.entries.delete(dedupeKey);
    return false;
  }

  forget(dedupeKey: string): void {
    this.entries.delete(dedupeKey);
  }
}

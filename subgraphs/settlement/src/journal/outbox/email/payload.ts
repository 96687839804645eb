import { formatAmount, formatTime } from './format.js';

/**
 * A message that can never be sent as it is (its payload lacks what its template needs). Final:
 * the delivery worker reads `retryable: false` and ends the row DEAD at once with this message,
 * where an admin sees it; retrying the same payload would fail the same way.
 */
export class UndeliverableMessageError extends Error {
  readonly retryable = false;

  constructor(message: string) {
    super(message);
    this.name = 'UndeliverableMessageError';
  }
}

/** Typed reads of an outbox payload, failing with the field's name. */
export class PayloadReader {
  constructor(
    private readonly payload: Record<string, unknown>,
    private readonly what: string,
  ) {}

  optionalText(key: string): string | null {
    const value = this.payload[key];
    if (value === undefined || value === null || value === '') return null;
    if (typeof value === 'string') return value;
    if (typeof value === 'number' || typeof value === 'bigint') return String(value);
    throw new UndeliverableMessageError(`${this.what}: ${key} is not text`);
  }

  text(key: string): string {
    const value = this.optionalText(key);
    if (value === null) throw new UndeliverableMessageError(`${this.what}: ${key} is missing`);
    return value;
  }

  amount(key: string): string {
    return this.formatted(key, formatAmount, this.text(key));
  }

  optionalAmount(key: string): string | null {
    const value = this.optionalText(key);
    return value === null ? null : this.formatted(key, formatAmount, value);
  }

  optionalTime(key: string): string | null {
    const value = this.optionalText(key);
    return value === null ? null : this.formatted(key, formatTime, value);
  }

  /** A nested object (a party of a tax invoice); null when absent. */
  optionalObject(key: string): PayloadReader | null {
    const value = this.payload[key];
    if (value === undefined || value === null) return null;
    if (typeof value !== 'object' || Array.isArray(value)) {
      throw new UndeliverableMessageError(`${this.what}: ${key} is not an object`);
    }
    return new PayloadReader(value as Record<string, unknown>, `${this.what}.${key}`);
  }

  private formatted(key: string, format: (value: string) => string, value: string): string {
    try {
      return format(value);
    } catch (error) {
      throw new UndeliverableMessageError(`${this.what}: ${key}: ${(error as Error).message}`);
    }
  }
}

/** Facts whose value is absent are left out (`[label, null]` entries are dropped). */
export function present(
  ...facts: (readonly [string, string | null])[]
): (readonly [string, string])[] {
  return facts.filter((fact): fact is readonly [string, string] => fact[1] !== null);
}

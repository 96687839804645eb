import { Decimal } from 'decimal.js';
import { Type, type Platform, type TransformContext } from '@mikro-orm/core';

/**
 * numeric(15,2) ↔ decimal.js. PostgreSQL returns numerics as strings, which decimal.js reads
 * exactly; no amount ever passes through a JS number.
 */
export class DecimalType extends Type<Decimal | null, string | null> {
  override convertToDatabaseValue(
    value: Decimal | string | null,
    _platform: Platform,
    _context?: TransformContext,
  ): string | null {
    if (value === null || value === undefined) return null;
    return new Decimal(value).toFixed(2);
  }

  override convertToJSValue(value: string | null): Decimal | null {
    if (value === null || value === undefined) return null;
    return new Decimal(value);
  }

  override compareAsType(): string {
    return 'string';
  }

  override getColumnType(): string {
    return 'numeric(15,2)';
  }
}

/** Splits a postgres:// URL into what MikroORM's options want. */
export function databaseNameOf(url: string): string {
  return decodeURIComponent(new URL(url).pathname.replace(/^\//, ''));
}

import { BigIntType } from '@mikro-orm/core';
import { DecimalType } from '@campaign/platform';

/**
 * Option factories for the MikroORM `@Property` columns the settlement entities share. Each call
 * returns a fresh object, so no two properties share one options object.
 */

/** A money (or rate) column held as a Decimal. */
export const money = (fieldName: string) => ({ type: DecimalType, fieldName });

/** A nullable timestamptz column. */
export const optionalDate = (fieldName: string) => ({
  type: 'timestamptz',
  fieldName,
  nullable: true,
});

/** A nullable text column. */
export const optionalText = (fieldName: string) => ({ type: 'text', fieldName, nullable: true });

/** A bigint id column read as a string (a reference to another row). */
export const bigintRef = (fieldName: string) => ({ type: new BigIntType('string'), fieldName });

/** A nullable bigint id column read as a string. */
export const optionalBigintRef = (fieldName: string) => ({
  ...bigintRef(fieldName),
  nullable: true,
});

/** `created_at`, set when the row is created. */
export const createdAtColumn = () => ({
  type: 'timestamptz',
  fieldName: 'created_at',
  onCreate: () => new Date(),
});

/** `updated_at`, set when the row is created and on every update. */
export const updatedAtColumn = () => ({
  type: 'timestamptz',
  fieldName: 'updated_at',
  onCreate: () => new Date(),
  onUpdate: () => new Date(),
});

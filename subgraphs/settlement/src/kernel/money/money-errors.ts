import { PlatformError } from '@campaign/schema';

/**
 * A value that does not fit its decimal column; a 400 INVALID_REQUEST naming the field and why
 * (`reason`, one of `R`).
 */
abstract class InvalidDecimalError<R extends string> extends PlatformError {
  constructor(
    readonly field: string,
    readonly reason: R,
    message: string,
  ) {
    super('INVALID_REQUEST', message, { field, reason });
  }
}

export type InvalidAmountReason =
  'not-a-number' | 'not-finite' | 'too-many-decimals' | 'negative' | 'too-large';

/** An amount that does not fit numeric(15,2) as a non-negative value. */
export class InvalidAmountError extends InvalidDecimalError<InvalidAmountReason> {
  override name = 'InvalidAmountError';
}

export type InvalidRateReason =
  'not-a-number' | 'not-finite' | 'too-many-decimals' | 'out-of-range';

/** A percentage rate that does not fit decimal(5,2) within 0..100. */
export class InvalidRateError extends InvalidDecimalError<InvalidRateReason> {
  override name = 'InvalidRateError';
}

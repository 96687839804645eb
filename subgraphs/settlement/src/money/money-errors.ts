import { PlatformError } from '@campaign/schema';

export type InvalidAmountReason =
  'not-a-number' | 'not-finite' | 'too-many-decimals' | 'negative' | 'too-large';

/** An amount that does not fit numeric(15,2) as a non-negative value; a 400 INVALID_REQUEST. */
export class InvalidAmountError extends PlatformError {
  readonly field: string;
  readonly reason: InvalidAmountReason;

  constructor(field: string, reason: InvalidAmountReason, message: string) {
    super('INVALID_REQUEST', message, { field, reason });
    this.name = 'InvalidAmountError';
    this.field = field;
    this.reason = reason;
  }
}

export type InvalidRateReason =
  'not-a-number' | 'not-finite' | 'too-many-decimals' | 'out-of-range';

/** A percentage rate that does not fit decimal(5,2) within 0..100; a 400 INVALID_REQUEST. */
export class InvalidRateError extends PlatformError {
  readonly field: string;
  readonly reason: InvalidRateReason;

  constructor(field: string, reason: InvalidRateReason, message: string) {
    super('INVALID_REQUEST', message, { field, reason });
    this.name = 'InvalidRateError';
    this.field = field;
    this.reason = reason;
  }
}

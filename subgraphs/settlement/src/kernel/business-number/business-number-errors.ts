import { PlatformError } from '@campaign/schema';

export type InvalidBusinessNumberReason = 'format' | 'check-digit';

/** A business registration number that is not 10 digits or fails its check digit; a 400. */
export class InvalidBusinessNumberError extends PlatformError {
  readonly reason: InvalidBusinessNumberReason;

  constructor(reason: InvalidBusinessNumberReason, message: string) {
    super('INVALID_BUSINESS_NUMBER', message, { reason });
    this.name = 'InvalidBusinessNumberError';
    this.reason = reason;
  }
}

import { z } from 'zod';
import { InvalidBusinessNumberError } from './business-number-errors.js';
import { BUSINESS_NUMBER_FORMAT, normaliseBusinessNumber } from './business-number.js';

/** The catalogue code of every refusal of a business number. */
const ERROR_CODE = 'INVALID_BUSINESS_NUMBER';

/** What {@link businessNumberField} says after the field's name, per reason. */
const FIELD_MESSAGES = {
  format: 'must be 10 digits, written as 1234567890 or 123-45-67890.',
  'check-digit': 'fails its check digit: it is not a business registration number.',
} as const;

/**
 * The zod rule of every business registration number the platform stores (agencies, and
 * partners once they carry one): the same format and check digit as the public verification
 * (DESIGN.md section 5), and the value kept as its 10 digits. A bad number is a 400
 * INVALID_BUSINESS_NUMBER naming the field, through `parseInput` (input-rules.ts), which reads
 * the catalogue code from the issue's `params.errorCode`.
 *
 *   z.object({ businessNumber: businessNumberField, ... })          // required
 *   z.object({ businessNumber: businessNumberField.optional(), ... }) // an update
 */
export const businessNumberField = z
  .string()
  // The format as the published schemas state it, with the code of its refusal (the check digit
  // is said in words there).
  .meta({ pattern: BUSINESS_NUMBER_FORMAT.source, 'x-error-code': ERROR_CODE })
  .transform((value, ctx) => {
    try {
      return normaliseBusinessNumber(value);
    } catch (error) {
      if (!(error instanceof InvalidBusinessNumberError)) throw error;
      ctx.addIssue({
        code: 'custom',
        message: FIELD_MESSAGES[error.reason],
        params: { errorCode: ERROR_CODE, reason: error.reason },
      });
      return z.NEVER;
    }
  });

/**
 * Business registration numbers: the one check (format and check digit) every number the
 * platform stores or verifies goes through; the public verification with the tax authority is flows/business.
 * Other modules take the zod rule `businessNumberField` for their inputs.
 */
export { businessNumberField } from './business-number-field.js';
export { InvalidBusinessNumberError } from './business-number-errors.js';
export {
  businessNumberCheckDigit,
  formatBusinessNumber,
  isValidBusinessNumber,
  normaliseBusinessNumber,
} from './business-number.js';

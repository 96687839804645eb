import { PlatformError } from '@campaign/schema';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function requireText(value: string, field: string, max = 200): string {
  const trimmed = value.trim();
  if (trimmed.length === 0 || trimmed.length > max) {
    throw new PlatformError('INVALID_REQUEST', `${field} must be 1 to ${max} characters.`, {
      field,
    });
  }
  return trimmed;
}

export function optionalText(
  value: string | null | undefined,
  field: string,
  max = 200,
): string | null {
  return value === null || value === undefined || value.trim() === ''
    ? null
    : requireText(value, field, max);
}

export function requireEmail(value: string, field = 'email'): string {
  const email = requireText(value, field, 254);
  if (!EMAIL.test(email))
    throw new PlatformError('INVALID_REQUEST', `${field} must be an e-mail address.`, { field });
  return email;
}

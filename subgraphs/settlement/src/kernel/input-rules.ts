import { z } from 'zod';
import { isErrorCode, PlatformError } from '@campaign/schema';

/**
 * The settlement subgraph's input rules, written with zod as lens writes its own. GraphQL has
 * already checked every type, so these are the rules GraphQL cannot say: lengths, formats and
 * ranges. Lengths count UTF-16 units (JavaScript's `length`), as the settlement API always has.
 */

const lengthMessage = (max: number) => `must be 1 to ${max} characters.`;

/** At least one character that is not blank (the published schemas' form of "once trimmed"). */
const NOT_BLANK = /\S/;

/** Text of 1 to `max` characters once trimmed; the value is kept trimmed. */
export const text = (max = 200) =>
  z
    .string()
    .trim()
    .min(1, { error: lengthMessage(max) })
    .max(max, { error: lengthMessage(max) })
    .regex(NOT_BLANK, { error: lengthMessage(max) });

/** Optional text: absent, null or blank is null; anything else is {@link text}. */
export const optionalText = (max = 200) =>
  z
    .string()
    .trim()
    .max(max, { error: lengthMessage(max) })
    .nullish()
    .transform((value) => (value ? value : null));

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** An e-mail address of at most 254 characters (the SMTP limit). */
export const email = () => text(254).regex(EMAIL, { error: 'must be an e-mail address.' });

/** A value of the enumeration `values`; GraphQL already guarantees it, direct callers too. */
export const oneOf = <const T extends Readonly<Record<string, string>>>(values: T) =>
  z.enum(values, { error: 'is not known.' });

/**
 * Reads `raw` with `schema`; the first problem is a 400 whose message starts with the field
 * (`reason must be 1 to 1000 characters.`) and whose extensions name it: INVALID_REQUEST, or the
 * catalogue code a rule names in its issue's `params.errorCode` (a business number's
 * INVALID_BUSINESS_NUMBER is the same answer wherever the number is given).
 */
export function parseInput<S extends z.ZodType>(schema: S, raw: unknown): z.output<S> {
  const result = schema.safeParse(raw);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const field = issue.path.join('.');
  const named = issue.code === 'custom' ? issue.params?.['errorCode'] : undefined;
  const code = isErrorCode(named) ? named : 'INVALID_REQUEST';
  throw new PlatformError(code, `${field} ${issue.message}`, { field });
}

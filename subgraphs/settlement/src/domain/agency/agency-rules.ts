import { z } from 'zod';
import { PlatformError } from '@campaign/schema';
import { businessNumberField } from '../../kernel/business-number/index.js';
import { email, parseInput, text } from '../../kernel/input-rules.js';

/** Agency codes (DESIGN.md 5): the database checks the same pattern and uniqueness of lower(code). */
export const AGENCY_CODE = /^[A-Za-z0-9_-]{2,30}$/;

const code = z.string().regex(AGENCY_CODE, {
  error: 'must be 2 to 30 characters: letters, digits, _ or -.',
});

/** Bank account numbers as banks print them: digit groups joined by single hyphens. */
const accountNumber = text(30)
  .regex(/^\d+(-\d+)*$/, {
    error: 'must be digits, optionally grouped by single hyphens (110-123-456789).',
  })
  // A pattern, not a refinement, so the published schemas state it too.
  .regex(/^(\D*\d){6}/, { error: 'must have at least 6 digits.' });

/** Every string field of spec 2.4, each required on create. */
const fields = {
  name: text(200),
  code,
  businessName: text(200),
  businessNumber: businessNumberField,
  representativeName: text(100),
  bankName: text(100),
  accountNumber,
  accountHolder: text(200),
  email: email(),
};

export type AgencyFields = { [K in keyof typeof fields]: z.output<(typeof fields)[K]> };

export const createAgencyRules = z.object(fields);
/** An update: any of the fields, none of them null (PUT never clears one). */
export const updateAgencyRules = z.object(fields).partial();

/** What createAgency takes: every string field of spec 2.4 (GraphQL has checked the types). */
export type AgencyInputValues = { [K in keyof AgencyFields]?: string | null };

export function readNewAgency(input: AgencyInputValues): AgencyFields {
  return parseInput(createAgencyRules, { ...input });
}

/**
 * The fields an update gives; absent fields keep their value. A field sent as null is a 400
 * (every field of an agency is required; PUT never clears one).
 */
export function readAgencyChanges(input: AgencyInputValues): Partial<AgencyFields> {
  const given = Object.fromEntries(
    Object.entries(input).filter(([, value]) => value !== undefined),
  );
  const cleared = Object.keys(given).find((key) => given[key] === null);
  if (cleared) {
    throw new PlatformError(
      'INVALID_REQUEST',
      `${cleared} cannot be null; leave it out to keep the current value.`,
      { field: cleared },
    );
  }
  return parseInput(updateAgencyRules, given);
}

import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { PlatformError } from '@campaign/schema';
import { parseInput, text } from '../input-rules.js';
import { businessNumberField } from './business-number-field.js';

/** How an input with a business number reads, as agencies (and partners, later) use it. */
const input = z.object({ name: text(), businessNumber: businessNumberField });
const update = z.object({ businessNumber: businessNumberField.optional() });

const refusal = (raw: unknown, schema: z.ZodType = input) => {
  try {
    parseInput(schema, raw);
  } catch (error) {
    if (error instanceof PlatformError)
      return { code: error.code, message: error.message, extensions: error.extensions };
    throw error;
  }
  throw new Error('expected a refusal');
};

describe('businessNumberField', () => {
  it('keeps the 10 digits of either form', () => {
    expect(parseInput(input, { name: 'A', businessNumber: '123-45-67891' })).toEqual({
      name: 'A',
      businessNumber: '1234567891',
    });
    expect(parseInput(update, { businessNumber: ' 1234567891 ' })).toEqual({
      businessNumber: '1234567891',
    });
    expect(parseInput(update, {})).toEqual({});
  });

  it('a bad format or check digit is 400 INVALID_BUSINESS_NUMBER naming the field', () => {
    expect(refusal({ name: 'A', businessNumber: '12345' })).toMatchObject({
      code: 'INVALID_BUSINESS_NUMBER',
      message: 'businessNumber must be 10 digits, written as 1234567890 or 123-45-67890.',
      extensions: { field: 'businessNumber', httpStatus: 400 },
    });
    expect(refusal({ name: 'A', businessNumber: '1234567890' })).toMatchObject({
      code: 'INVALID_BUSINESS_NUMBER',
      message: 'businessNumber fails its check digit: it is not a business registration number.',
    });
    expect(refusal({ businessNumber: '123-45-6789' }, update)).toMatchObject({
      code: 'INVALID_BUSINESS_NUMBER',
    });
  });

  it('other problems stay INVALID_REQUEST', () => {
    expect(refusal({ name: '', businessNumber: '1234567891' })).toMatchObject({
      code: 'INVALID_REQUEST',
      message: 'name must be 1 to 200 characters.',
    });
    expect(refusal({ name: 'A', businessNumber: 1234567891 })).toMatchObject({
      code: 'INVALID_REQUEST',
    });
  });
});

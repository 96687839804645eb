import { describe, expect, it } from 'vitest';
import { readAgencyChanges, readNewAgency } from './agency-rules.js';

const valid = {
  name: 'Seoul Creators Agency',
  code: 'seoul-creators',
  businessName: 'Seoul Creators Co., Ltd.',
  businessNumber: '214-87-11238',
  representativeName: 'Lee Seoyeon',
  bankName: 'KB Kookmin Bank',
  accountNumber: '123456-01-234567',
  accountHolder: 'Seoul Creators Co., Ltd.',
  email: 'billing@seoulcreators.example',
};

const codeOf = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    return [(error as { code: string }).code, (error as Error).message];
  }
  return null;
};

describe('agency rules', () => {
  it('keeps the business number as its 10 digits', () => {
    expect(readNewAgency(valid).businessNumber).toBe('2148711238');
  });

  it.each([
    ['1 character', 'a', false],
    ['2 characters', 'ab', true],
    ['30 characters', 'a'.repeat(30), true],
    ['31 characters', 'a'.repeat(31), false],
    ['letters, digits, _ and -', 'Ab_9-z', true],
    ['a space', 'ab cd', false],
    ['a dot', 'ab.cd', false],
    ['Hangul', '서울', false],
  ])('code of %s: accepted %s', (_label, code, accepted) => {
    const problem = codeOf(() => readNewAgency({ ...valid, code }));
    if (accepted) expect(problem).toBeNull();
    else
      expect(problem).toEqual(['INVALID_REQUEST', expect.stringMatching(/^code must be 2 to 30/)]);
  });

  it.each([
    ['110-123-456789', true],
    ['1234567', true],
    ['12345', false],
    ['12--345678', false],
    ['-12345678', false],
    ['12 345 678', false],
    ['1'.repeat(31), false],
  ])('account number %s: accepted %s', (accountNumber, accepted) => {
    const problem = codeOf(() => readNewAgency({ ...valid, accountNumber }));
    expect(problem === null).toBe(accepted);
  });

  it('a bad business number is INVALID_BUSINESS_NUMBER naming the field', () => {
    expect(codeOf(() => readNewAgency({ ...valid, businessNumber: '2148711234' }))).toEqual([
      'INVALID_BUSINESS_NUMBER',
      expect.stringMatching(/^businessNumber fails its check digit/),
    ]);
  });

  it('create needs every field; an update only the given ones, never null', () => {
    expect(codeOf(() => readNewAgency({ ...valid, email: undefined }))?.[0]).toBe(
      'INVALID_REQUEST',
    );
    expect(readAgencyChanges({ name: ' New name ', email: undefined })).toEqual({
      name: 'New name',
    });
    expect(readAgencyChanges({})).toEqual({});
    expect(codeOf(() => readAgencyChanges({ bankName: null }))).toEqual([
      'INVALID_REQUEST',
      'bankName cannot be null; leave it out to keep the current value.',
    ]);
    expect(codeOf(() => readAgencyChanges({ email: 'no-at-sign' }))?.[0]).toBe('INVALID_REQUEST');
  });
});

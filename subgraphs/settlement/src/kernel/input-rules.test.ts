import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { email, oneOf, optionalText, parseInput, text } from './input-rules.js';

const rules = z.object({
  title: text(5),
  reason: optionalText(5),
  email: email(),
  kind: oneOf({ A: 'A', B: 'B' } as const),
});
const valid = { title: ' Hi ', reason: '  ', email: 'a@b.co', kind: 'A' };

describe('settlement input rules', () => {
  it('trims text and reads blank optional text as null', () => {
    expect(parseInput(rules, valid)).toEqual({
      title: 'Hi',
      reason: null,
      email: 'a@b.co',
      kind: 'A',
    });
    expect(parseInput(rules, { ...valid, reason: undefined }).reason).toBeNull();
    expect(parseInput(rules, { ...valid, reason: ' why ' }).reason).toBe('why');
  });

  it.each([
    [{ title: '   ' }, 'title must be 1 to 5 characters.'],
    [{ title: 'abcdef' }, 'title must be 1 to 5 characters.'],
    [{ reason: 'abcdef' }, 'reason must be 1 to 5 characters.'],
    [{ email: 'no-at-sign' }, 'email must be an e-mail address.'],
    [{ email: `${'a'.repeat(250)}@b.co` }, 'email must be 1 to 254 characters.'],
    [{ kind: 'C' }, 'kind is not known.'],
  ])('%o is a 400 naming the field: %s', (change, message) => {
    const field = Object.keys(change)[0];
    expect(() => parseInput(rules, { ...valid, ...change })).toThrow(
      expect.objectContaining({
        code: 'INVALID_REQUEST',
        message,
        extensions: expect.objectContaining({ field }),
      }),
    );
  });

  it('reports the first field in the order the rules list them', () => {
    expect(() => parseInput(rules, { ...valid, title: '', email: 'x' })).toThrow(/^title/);
  });
});

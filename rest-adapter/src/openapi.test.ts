import { describe, expect, it } from 'vitest';
import { lensBodyValidator } from './openapi.js';

const followers = lensBodyValidator('/accounts/followers');
const profile = lensBodyValidator('/accounts/profile');

describe('lens request bodies checked with the published OpenAPI document', () => {
  it('accepts a documented body', () => {
    expect(followers({ accountRef: { handle: 'minji.daily' }, pageSize: 50 })).toBeNull();
    expect(followers({ accountRef: { accountId: '123' }, search: 'kim', cursor: null })).toBeNull();
  });

  it.each([
    [undefined, 'body: must be object'],
    [{ accountRef: { handle: 'a b' } }, 'body.accountRef.handle: must match pattern'],
    [
      { accountRef: { handle: 'a', accountId: '1' } },
      'body.accountRef: Exactly one of the two forms',
    ],
    [{ accountRef: {} }, 'body.accountRef: Exactly one of the two forms'],
    [{ accountRef: { handle: 'a' }, extra: 1 }, 'body: unknown property "extra"'],
    [{ accountRef: { handle: 'a' }, pageSize: 51 }, 'body.pageSize: must be <= 50'],
    [{ accountRef: { handle: 'a' }, search: 'x', pageSize: 5 }, 'body: search disables paging'],
    [{ accountRef: { handle: 'a' }, search: 'x', cursor: 'c' }, 'body: search disables paging'],
  ])('refuses %j with a message naming the field', (body, message) => {
    const error = followers(body);
    expect(error?.status).toBe(400);
    expect(error?.body.code).toBe('INVALID_REQUEST');
    expect(error?.body.message).toContain(message);
  });

  it('names the index of a bad entry in a list', () => {
    const stories = lensBodyValidator('/accounts/stories');
    expect(stories({ accountRefs: [{ handle: 'ok' }, { handle: '' }] })?.body.message).toContain(
      'body.accountRefs[1].handle',
    );
    expect(profile({ accountRef: { handle: 'ok' }, detail: 'full' })?.body.message).toContain(
      'body.detail',
    );
  });
});

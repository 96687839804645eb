import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { rest } from '../support/clients.js';
import {
  createKeys,
  errorCode,
  expectDocumented,
  graphqlOp,
  restOp,
  type LensBody,
  type OperationName,
} from './lens-client.js';

const REF = { handle: 'limits.account' };
const DIGITS_30 = `1${'2'.repeat(29)}`;
const EMOJI = '😀';

/** [operation, what, body, accepted]; every limit of lens spec sections 4 and 8 at, under and over its bound. */
type Case = [OperationName, string, unknown, boolean];

const CASES: Case[] = [
  // AccountRef (2.2), through accounts.profile: [what, accountRef, accepted]
  ...(
    [
      ['handle of 1 character', { handle: 'a' }, true],
      ['handle of 30 characters', { handle: 'h'.repeat(30) }, true],
      ['handle of 31 characters', { handle: 'h'.repeat(31) }, false],
      ['empty handle', { handle: '' }, false],
      ['handle with dots, digits, underscores', { handle: 'a.b_9.Z' }, true],
      ['handle with a space', { handle: 'a b' }, false],
      ['handle with a hyphen', { handle: 'a-b' }, false],
      ['handle with a non-ASCII letter', { handle: 'mïnji' }, false],
      ['accountId of 1 digit', { accountId: '7' }, true],
      ['accountId of 30 digits', { accountId: DIGITS_30 }, true],
      ['accountId of 31 digits', { accountId: `${DIGITS_30}1` }, false],
      ['accountId starting with 0', { accountId: '0123' }, false],
      ['accountId with a letter', { accountId: '12a' }, false],
      ['accountId as a number', { accountId: 123 }, false],
      ['empty accountId', { accountId: '' }, false],
      ['both forms', { handle: 'a', accountId: '1' }, false],
      ['neither form', {}, false],
      ['an extra key in accountRef', { handle: 'a', id: '1' }, false],
    ] as const
  ).map(([what, accountRef, ok]): Case => ['accounts.profile', what, { accountRef }, ok]),
  ['accounts.profile', 'no accountRef', {}, false],
  ['accounts.profile', 'an extra key in the body', { accountRef: REF, more: true }, false],
  // detail
  ['accounts.profile', 'detail standard', { accountRef: REF, detail: 'standard' }, true],
  ['accounts.profile', 'detail extended', { accountRef: REF, detail: 'extended' }, true],
  ['accounts.profile', 'detail full', { accountRef: REF, detail: 'full' }, false],
  // pageSize (posts, reels 1-12; taggedPosts 1-50; followers, following 1-50)
  ...(['accounts.posts', 'accounts.reels'] as const).flatMap((op): Case[] => [
    [op, 'pageSize 1', { accountRef: REF, pageSize: 1 }, true],
    [op, 'pageSize 12', { accountRef: REF, pageSize: 12 }, true],
    [op, 'pageSize 0', { accountRef: REF, pageSize: 0 }, false],
    [op, 'pageSize 13', { accountRef: REF, pageSize: 13 }, false],
    [op, 'pageSize -1', { accountRef: REF, pageSize: -1 }, false],
    [op, 'pageSize 1.5', { accountRef: REF, pageSize: 1.5 }, false],
    [op, 'pageSize "12"', { accountRef: REF, pageSize: '12' }, false],
    [op, 'a search', { accountRef: REF, search: 'a' }, false],
  ]),
  ...(['accounts.taggedPosts', 'accounts.followers', 'accounts.following'] as const).flatMap(
    (op): Case[] => [
      [op, 'pageSize 1', { accountRef: REF, pageSize: 1 }, true],
      [op, 'pageSize 50', { accountRef: REF, pageSize: 50 }, true],
      [op, 'pageSize 0', { accountRef: REF, pageSize: 0 }, false],
      [op, 'pageSize 51', { accountRef: REF, pageSize: 51 }, false],
    ],
  ),
  // search on followers, following: 1-100 characters, no paging with it (L11)
  ...(['accounts.followers', 'accounts.following'] as const).flatMap((op): Case[] => [
    [op, 'search of 1 character', { accountRef: REF, search: 'a' }, true],
    [op, 'search of 100 characters', { accountRef: REF, search: 'a'.repeat(100) }, true],
    [op, 'search of 100 emoji', { accountRef: REF, search: EMOJI.repeat(100) }, true],
    [op, 'search of 101 characters', { accountRef: REF, search: 'a'.repeat(101) }, false],
    [op, 'search of 101 emoji', { accountRef: REF, search: EMOJI.repeat(101) }, false],
    [op, 'empty search', { accountRef: REF, search: '' }, false],
    [op, 'search of spaces only', { accountRef: REF, search: '   ' }, false],
    [op, 'search with pageSize', { accountRef: REF, search: 'a', pageSize: 10 }, false],
    [op, 'search with a cursor', { accountRef: REF, search: 'a', cursor: 'c1.x.y' }, false],
  ]),
  // cursor: at most 16384 characters
  [
    'accounts.posts',
    'cursor of 16385 characters',
    { accountRef: REF, cursor: 'x'.repeat(16385) },
    false,
  ],
  ['accounts.posts', 'cursor as a number', { accountRef: REF, cursor: 5 }, false],
  ['accounts.guides', 'no cursor', { accountRef: REF }, true],
  ['accounts.guides', 'a pageSize (guides has none)', { accountRef: REF, pageSize: 5 }, false],
  // stories: 1-4 accountRefs
  ['accounts.stories', '1 accountRef', { accountRefs: [REF] }, true],
  ['accounts.stories', '4 accountRefs', { accountRefs: [REF, REF, REF, REF] }, true],
  ['accounts.stories', 'no accountRefs', { accountRefs: [] }, false],
  ['accounts.stories', '5 accountRefs', { accountRefs: [REF, REF, REF, REF, REF] }, false],
  ['accounts.stories', 'a bad accountRef', { accountRefs: [REF, { handle: 'a b' }] }, false],
  ['accounts.stories', 'accountRef instead of accountRefs', { accountRef: REF }, false],
  // single-account operations are closed too
  ...(
    ['accounts.highlights', 'accounts.broadcast', 'accounts.related', 'accounts.about'] as const
  ).flatMap((op): Case[] => [
    [op, 'an accountRef', { accountRef: REF }, true],
    [op, 'an extra key', { accountRef: REF, cursor: null }, false],
    [op, 'no accountRef', {}, false],
  ]),
  // accounts.search: 1-200 characters
  ['accounts.search', 'search of 1 character', { search: 'k' }, true],
  ['accounts.search', 'search of 200 characters', { search: 'k'.repeat(200) }, true],
  ['accounts.search', 'search of 200 emoji', { search: EMOJI.repeat(200) }, true],
  ['accounts.search', 'search of 201 characters', { search: 'k'.repeat(201) }, false],
  ['accounts.search', 'empty search', { search: '' }, false],
  ['accounts.search', 'search of spaces only', { search: '  ' }, false],
  ['accounts.search', 'no search', {}, false],
  ['accounts.search', 'a pageSize', { search: 'k', pageSize: 10 }, false],
];

/** Bodies GraphQL cannot even express the same way (null stands for "not given" there). */
const REST_ONLY: Case[] = [
  ['accounts.profile', 'a JSON array body', [], false],
  ['accounts.profile', 'a JSON string body', '"x"', false],
  ['accounts.profile', 'accountRef null', { accountRef: null }, false],
  [
    'accounts.profile',
    'handle null beside accountId',
    { accountRef: { handle: null, accountId: '1' } },
    false,
  ],
  ['accounts.posts', 'pageSize null', { accountRef: REF, pageSize: null }, false],
  ['accounts.posts', 'cursor null (first page)', { accountRef: REF, cursor: null }, true],
  [
    'accounts.followers',
    'search with a null cursor',
    { accountRef: REF, search: 'a', cursor: null },
    true,
  ],
];

const label = (c: Case) => `${c[0]}: ${c[1]} → ${c[3] ? 'accepted' : '400'}`;

describe('input limits (lens spec sections 4 and 8) over REST', () => {
  let key: string;

  beforeAll(async () => {
    [key] = await createKeys(1);
  });

  it.each([...CASES, ...REST_ONLY].map((c) => [label(c), c] as const))('%s', async (_label, c) => {
    const [name, , body, accepted] = c;
    const result = await restOp(name, body, key);
    if (accepted) {
      expect(result.status, JSON.stringify(result.body)).toBe(200);
    } else {
      expect(result.status, JSON.stringify(result.body)).toBe(400);
      expect(result.body.error!.code).toBe('INVALID_REQUEST');
      expect(result.body.data).toBeUndefined();
    }
  });

  it('an error message names the field', async () => {
    const result = await restOp('accounts.posts', { accountRef: REF, pageSize: 13 }, key);
    expect(result.body.error!.message).toContain('pageSize');
    const both = await restOp(
      'accounts.followers',
      { accountRef: REF, search: 'a', pageSize: 3 },
      key,
    );
    expect(both.body.error!.message).toContain('search');
  });

  it.each([
    ['1 character', 'k', 200],
    ['128 characters', 'k'.repeat(128), 200],
    ['129 characters', 'k'.repeat(129), 400],
  ])('Idempotency-Key of %s → %d', async (_what, idempotencyKey, status) => {
    const result = await restOp(
      'accounts.profile',
      { accountRef: REF },
      key,
      `${idempotencyKey.slice(0, -1)}${randomUUID().slice(0, 1)}`,
    );
    expect(result.status, JSON.stringify(result.body)).toBe(status);
  });

  it('a missing Idempotency-Key → 400', async () => {
    const result = await rest<LensBody>('POST', '/api/lens/v1/accounts/profile', {
      token: key,
      body: { accountRef: REF },
    });
    expectDocumented('/accounts/profile', 'post', result);
    expect(result.status).toBe(400);
    expect(result.body.error!.code).toBe('INVALID_REQUEST');
  });

  it('a body that is not JSON → 400', async () => {
    const result = await rest<LensBody>('POST', '/api/lens/v1/accounts/profile', {
      token: key,
      body: '{"accountRef": ',
      headers: { 'idempotency-key': randomUUID() },
    });
    expect(result.status).toBe(400);
    expect(result.body.error!.code).toBe('INVALID_REQUEST');
  });

  it('defaults are applied before reserving: posts 12, taggedPosts 12, followers 50', async () => {
    for (const [name, reserved] of [
      ['accounts.posts', 13],
      ['accounts.reels', 13],
      ['accounts.taggedPosts', 13],
      ['accounts.followers', 51],
      ['accounts.following', 51],
      ['accounts.guides', 13],
    ] as const) {
      const result = await restOp(name, { accountRef: REF }, key);
      expect(result.body.data!.credits.reserved, name).toBe(reserved);
    }
  });

  it('an input with its defaults written out is the same input (replayed, not 409)', async () => {
    const idempotencyKey = randomUUID();
    const first = await restOp('accounts.followers', { accountRef: REF }, key, idempotencyKey);
    const again = await restOp(
      'accounts.followers',
      { pageSize: 50, accountRef: REF },
      key,
      idempotencyKey,
    );
    expect(again.status).toBe(200);
    expect(again.body.data!.replayed).toBe(true);
    expect(again.body.data!.operationId).toBe(first.body.data!.operationId);
  });
});

describe('the same limits over GraphQL (the subgraph’s own rules)', () => {
  let key: string;

  beforeAll(async () => {
    [key] = await createKeys(1);
  });

  it.each(CASES.map((c) => [label(c), c] as const))('%s', async (_label, c) => {
    const [name, , input, accepted] = c;
    const { result, errors } = await graphqlOp(name, input, key);
    if (accepted) {
      expect(errors, JSON.stringify(errors)).toBeUndefined();
      expect(result!.status).toBe('SUCCEEDED');
    } else {
      expect(result).toBeUndefined();
      expect(['INVALID_REQUEST', 'BAD_USER_INPUT', 'GRAPHQL_VALIDATION_FAILED']).toContain(
        errorCode(errors),
      );
    }
  });

  it.each([
    ['', 'INVALID_REQUEST'],
    ['k'.repeat(129), 'INVALID_REQUEST'],
  ])('idempotencyKey %j is refused', async (idempotencyKey, code) => {
    const { errors } = await graphqlOp('accounts.profile', { accountRef: REF }, key, {
      idempotencyKey,
    });
    expect(errorCode(errors)).toBe(code);
  });
});

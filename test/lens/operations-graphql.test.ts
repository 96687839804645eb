import { beforeAll, describe, expect, it } from 'vitest';
import {
  createKeys,
  errorCode,
  graphqlFails,
  graphqlOp,
  OPERATIONS,
  restOk,
  type OperationName,
} from './lens-client.js';

const HANDLE = 'haneul.cooks';

/** One valid input per operation. */
const INPUTS: Record<OperationName, Record<string, unknown>> = {
  'accounts.profile': { accountRef: { handle: HANDLE } },
  'accounts.posts': { accountRef: { handle: HANDLE }, pageSize: 4 },
  'accounts.reels': { accountRef: { handle: HANDLE }, pageSize: 4 },
  'accounts.taggedPosts': { accountRef: { handle: HANDLE }, pageSize: 4 },
  'accounts.followers': { accountRef: { handle: HANDLE }, pageSize: 10 },
  'accounts.following': { accountRef: { handle: HANDLE }, pageSize: 10 },
  'accounts.guides': { accountRef: { handle: HANDLE } },
  'accounts.stories': { accountRefs: [{ handle: HANDLE }, { handle: 'minji.daily' }] },
  'accounts.highlights': { accountRef: { handle: HANDLE } },
  'accounts.broadcast': { accountRef: { handle: HANDLE } },
  'accounts.related': { accountRef: { handle: HANDLE } },
  'accounts.about': { accountRef: { handle: HANDLE } },
  'accounts.search': { search: 'haneul' },
};

const NAMES = Object.keys(OPERATIONS) as OperationName[];

describe('every lens operation over GraphQL (the same engine as REST)', () => {
  let key: string;

  beforeAll(async () => {
    [key] = await createKeys(1);
  });

  it.each(NAMES)('%s: the envelope, and the same data as over REST', async (name) => {
    const { result, errors } = await graphqlOp(name, INPUTS[name], key);
    expect(errors, JSON.stringify(errors)).toBeUndefined();
    expect(result).toMatchObject({ operationName: name, status: 'SUCCEEDED', replayed: false });
    expect(result!.observedAt).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    expect(result!.credits.reserved).toBe(result!.credits.charged + result!.credits.refunded);
    const overRest = await restOk(name, INPUTS[name], key);
    expect(result!.data).toEqual(overRest.data);
    expect(result!.credits).toEqual(overRest.credits);
  });

  it('accounts.profile extended over GraphQL (enum detail)', async () => {
    const { result } = await graphqlOp(
      'accounts.profile',
      { accountRef: { accountId: null, handle: HANDLE }, detail: 'extended' },
      key,
    );
    expect(result!.data).toHaveProperty('externalUrl');
    expect(result!.data).toHaveProperty('reelCount');
  });

  it('a repeated key with the same input replays the execution', async () => {
    const idempotencyKey = `replay-${Date.now()}`;
    const first = await graphqlOp('accounts.posts', INPUTS['accounts.posts'], key, {
      idempotencyKey,
    });
    // Key order and an explicit default do not change the input's identity.
    const again = await graphqlOp(
      'accounts.posts',
      { pageSize: 4, accountRef: { handle: HANDLE }, cursor: null },
      key,
      { idempotencyKey },
    );
    expect(again.result!.replayed).toBe(true);
    expect(again.result!.operationId).toBe(first.result!.operationId);
  });

  it('LensOperation.accounts resolves every account in the result as a federated Account', async () => {
    const { result, errors } = await graphqlOp(
      'accounts.followers',
      INPUTS['accounts.followers'],
      key,
      {
        selection: 'status data accounts { accountId handle followerCount observedAt }',
      },
    );
    expect(errors).toBeUndefined();
    const items = (result!.data as { items: { accountId: string; handle: string }[] }).items;
    expect(result!.accounts!.map((a) => a.accountId)).toEqual(items.map((i) => i.accountId));
    for (const account of result!.accounts!) {
      expect(account.handle).not.toBeNull();
      expect(account.observedAt).toMatch(/^\d{4}-/);
    }
  });

  it('posts resolve owners and mentions as Accounts, each once', async () => {
    const { result } = await graphqlOp('accounts.posts', { accountRef: { handle: HANDLE } }, key, {
      selection: 'data accounts { accountId handle observedAt }',
    });
    const ids = result!.accounts!.map((a) => a.accountId);
    expect(new Set(ids).size).toBe(ids.length);
    const owner = (result!.data as { items: { owner: { accountId: string } }[] }).items[0]!.owner;
    expect(ids[0]).toBe(owner.accountId);
  });

  it.each([
    ['accounts.posts', { accountRef: { handle: HANDLE }, extra: 1 }],
    ['accounts.search', { search: 'x', pageSize: 3 }],
    ['accounts.profile', { accountRef: { handle: HANDLE, nickname: 'x' } }],
    ['accounts.about', {}],
  ] as const)('%s rejects a closed-body violation %j', async (name, input) => {
    const { result, errors } = await graphqlOp(name, input, key);
    expect(result).toBeUndefined();
    expect(['BAD_USER_INPUT', 'GRAPHQL_VALIDATION_FAILED', 'INVALID_REQUEST']).toContain(
      errorCode(errors),
    );
  });

  it('rule violations are INVALID_REQUEST errors naming the field', async () => {
    const errors = await graphqlFails(
      'accounts.followers',
      { accountRef: { handle: HANDLE }, search: 'ab', pageSize: 10 },
      key,
      'INVALID_REQUEST',
    );
    expect(errors[0]!.message).toContain('pageSize');
  });
});

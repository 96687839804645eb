import { beforeAll, expect } from 'vitest';
import {
  ACCOUNT_SUMMARY_KEYS,
  createKeys,
  restOk,
  sortedKeys,
  type Envelope,
  type OperationName,
} from './lens-client.js';

/** The answer shapes of the lens operations (lens spec section 4), shared by the operation tests. */

export { ACCOUNT_SUMMARY_KEYS, EXTENDED_PROFILE_KEYS, restOk, sortedKeys } from './lens-client.js';

/** One API key with credits to spare for the calling `describe` (made before its tests). */
export function useKey(): { key: string } {
  const made = { key: '' };
  beforeAll(async () => {
    [made.key] = await createKeys(1);
  });
  return made;
}

export type Summary = Record<string, unknown> & { accountId: string | null; handle: string | null };
export type Post = Record<string, unknown> & {
  owner: Summary;
  mentions: Summary[];
  postId: string;
};
export interface Page<T> {
  items: T[];
  nextCursor: string | null;
  completeness: string;
}

export const POST_KEYS = [
  'captionPreview',
  'carousel',
  'commentCount',
  'durationSeconds',
  'expiresAt',
  'format',
  'hashtags',
  'isPaidPartnership',
  'likeCount',
  'location',
  'mentions',
  'owner',
  'postId',
  'publishedAt',
  'sponsorAccounts',
  'shortcode',
  'viewCount',
].sort();

export const HANDLE = 'minji.daily';

/** Operation `name` over REST on the account HANDLE, which must succeed. */
export const readHandle = <T>(name: OperationName, key: string) =>
  restOk<T>(name, { accountRef: { handle: HANDLE } }, key);

/** Charged = base + perItem × delivered; reserved = base + perItem × upper bound; the rest refunded. */
export function expectCredits(
  envelope: Pick<Envelope, 'credits'>,
  reserved: number,
  charged: number,
) {
  expect(envelope.credits).toEqual({ reserved, charged, refunded: reserved - charged });
}

export function expectPosts(items: Post[]) {
  for (const post of items) {
    expect(sortedKeys(post)).toEqual(POST_KEYS);
    expect(sortedKeys(post.owner)).toEqual(ACCOUNT_SUMMARY_KEYS);
    for (const m of post.mentions) expect(sortedKeys(m)).toEqual(ACCOUNT_SUMMARY_KEYS);
  }
}

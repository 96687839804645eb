import type { AccountSummary, Post } from '../upstream/upstream.port.js';

/** The ten documented summary fields only (an extended profile carries more). */
export function summaryOf(account: AccountSummary): AccountSummary {
  return {
    accountId: account.accountId,
    handle: account.handle,
    displayName: account.displayName,
    biography: account.biography,
    isPrivate: account.isPrivate,
    isVerified: account.isVerified,
    followerCount: account.followerCount,
    followingCount: account.followingCount,
    postCount: account.postCount,
    category: account.category,
  };
}

/** Every account a post shows: its owner, the accounts it mentions and its sponsors. */
export function accountsInPosts(posts: readonly Post[]): AccountSummary[] {
  return posts.flatMap((p) => [p.owner, ...p.mentions, ...p.sponsorAccounts]);
}

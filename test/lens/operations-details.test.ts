import { describe, expect, it } from 'vitest';
import * as op from './operation-shapes.js';

/** Guides, stories, highlights, broadcast, related accounts, about and search over REST (lens spec section 4). */
describe('every lens operation over REST (lens spec section 4): the account details', () => {
  const api = op.useKey();

  it('accounts.guides: a page of Guide', async () => {
    const envelope = await op.readHandle<op.Page<Record<string, unknown> & { posts: op.Post[] }>>(
      'accounts.guides',
      api.key,
    );
    expect(envelope.data.completeness).toBe('observedSample');
    for (const guide of envelope.data.items) {
      expect(op.sortedKeys(guide)).toEqual(
        ['descriptionPreview', 'guideId', 'owner', 'posts', 'title'].sort(),
      );
      op.expectPosts(guide.posts);
    }
    op.expectCredits(envelope, 13, 1 + envelope.data.items.length);
  });

  it('accounts.stories: one story set per accountRef, in order, no cursor', async () => {
    const refs = [
      { handle: op.HANDLE },
      { handle: 'haneul.cooks' },
      { handle: 'jiwoo.studio' },
      { handle: 'seoul.eats' },
    ];
    const envelope = await op.restOk<{ items: { account: op.Summary; stories: op.Post[] }[] }>(
      'accounts.stories',
      { accountRefs: refs },
      api.key,
    );
    expect(op.sortedKeys(envelope.data)).toEqual(['items']);
    expect(envelope.data.items.map((s) => s.account.handle)).toEqual(refs.map((r) => r.handle));
    for (const set of envelope.data.items) {
      expect(op.sortedKeys(set)).toEqual(['account', 'stories']);
      op.expectPosts(set.stories);
      for (const story of set.stories) expect(story['expiresAt']).toEqual(expect.any(Number));
    }
    op.expectCredits(envelope, 5, 5);
  });

  it('accounts.highlights: items of Highlight', async () => {
    const envelope = await op.restOk<{
      items: (Record<string, unknown> & { stories: op.Post[] })[];
    }>('accounts.highlights', { accountRef: { handle: op.HANDLE } }, api.key);
    expect(op.sortedKeys(envelope.data)).toEqual(['items']);
    expect(envelope.data.items.length).toBeGreaterThan(0);
    for (const h of envelope.data.items) {
      expect(op.sortedKeys(h)).toEqual(['highlightId', 'itemCount', 'owner', 'stories', 'title']);
      op.expectPosts(h.stories);
    }
    op.expectCredits(envelope, 101, 1 + envelope.data.items.length);
  });

  it('accounts.broadcast: the Broadcast', async () => {
    const envelope = await op.readHandle<Record<string, unknown>>('accounts.broadcast', api.key);
    expect(op.sortedKeys(envelope.data)).toEqual(
      ['broadcastId', 'owner', 'startedAt', 'state', 'viewerCount'].sort(),
    );
    expect(['live', 'interrupted', 'ended', 'offline']).toContain(envelope.data['state']);
    op.expectCredits(envelope, 1, 1);
  });

  it('accounts.related: items of Account summary', async () => {
    const envelope = await op.readHandle<{ items: op.Summary[] }>('accounts.related', api.key);
    expect(op.sortedKeys(envelope.data)).toEqual(['items']);
    expect(envelope.data.items.length).toBeGreaterThan(0);
    for (const item of envelope.data.items)
      expect(op.sortedKeys(item)).toEqual(op.ACCOUNT_SUMMARY_KEYS);
    op.expectCredits(envelope, 51, 1 + envelope.data.items.length);
  });

  it('accounts.about: About', async () => {
    const envelope = await op.readHandle<Record<string, unknown>>('accounts.about', api.key);
    expect(op.sortedKeys(envelope.data)).toEqual(
      [
        'accountId',
        'country',
        'formerHandleCount',
        'isVerified',
        'joinedAt',
        'sharedFollowerAccountCount',
        'verifiedAt',
      ].sort(),
    );
    expect(envelope.data['joinedAt']).toMatch(/^\d{4}-\d{2}$/);
    op.expectCredits(envelope, 1, 1);
  });

  it('accounts.search: at most 50 Account summaries', async () => {
    const envelope = await op.restOk<{ items: op.Summary[] }>(
      'accounts.search',
      { search: 'minji' },
      api.key,
    );
    expect(op.sortedKeys(envelope.data)).toEqual(['items']);
    expect(envelope.data.items.length).toBe(50);
    for (const item of envelope.data.items)
      expect(op.sortedKeys(item)).toEqual(op.ACCOUNT_SUMMARY_KEYS);
    op.expectCredits(envelope, 51, 51);
  });
});

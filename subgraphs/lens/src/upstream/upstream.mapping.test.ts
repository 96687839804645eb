import { describe, expect, it } from 'vitest';
import { glowlab, jisoo, mina, post, summary } from './fixtures/expected.js';
import { fixture } from './fixtures/load.js';
import { mapAccountSummary, mapExtendedProfile, mapPage, mapPost } from './upstream.mapping.js';
import type * as Raw from './upstream.raw.js';

/** Raw profile and media JSON (recorded shapes in ./fixtures) → the documented fields. */

describe('profile mapping', () => {
  it('maps the web profile (edge counts, business fields) field for field', () => {
    const user = fixture<{ data: { user: Raw.RawUser } }>('web_profile_info').data.user;
    const standard = {
      accountId: '5831927730',
      handle: 'mina.kim',
      displayName: 'Mina Kim 김민아',
      biography: 'Seoul based ✨ coffee & film cameras\nCollabs: hello@minakim.studio',
      isPrivate: false,
      isVerified: false,
      followerCount: 48213,
      followingCount: 612,
      postCount: 341,
      category: 'Digital creator',
    };
    expect(mapAccountSummary(user)).toStrictEqual(standard);
    expect(mapExtendedProfile(user)).toStrictEqual({
      ...standard,
      externalUrl: 'https://linktr.ee/minakim',
      profilePictureUrl: 'https://scontent.cdninstagram.com/v/t51.2885-19/5831927730_hd.jpg',
      isBusinessAccount: true,
      businessEmail: 'hello@minakim.studio',
      businessPhone: null,
      pronouns: ['she', 'her'],
      highlightCount: 7,
      reelCount: 18,
    });
  });

  it('maps the app profile (*_count, public_*, empty strings, a pk too large for a double)', () => {
    const user = fixture<{ user: Raw.RawUser }>('user_info').user;
    expect(mapExtendedProfile(user)).toStrictEqual({
      accountId: '17841405793187218',
      handle: 'brewcraft',
      displayName: null,
      biography: '',
      isPrivate: false,
      isVerified: true,
      followerCount: 1204577,
      followingCount: 0,
      postCount: 1893,
      category: null,
      externalUrl: null,
      profilePictureUrl: 'https://scontent.cdninstagram.com/v/t51.2885-19/brewcraft_hd.jpg',
      isBusinessAccount: true,
      businessEmail: 'press@brewcraft.co',
      businessPhone: '+82 2-555-0142',
      pronouns: null,
      highlightCount: 0,
      reelCount: 240,
    });
  });

  it('gives every field, null, for an empty or missing user', () => {
    expect(mapAccountSummary(undefined)).toStrictEqual(summary({}));
    expect(mapAccountSummary({ pk: 12, username: '' })).toStrictEqual(summary({ accountId: '12' }));
  });
});

describe('media mapping', () => {
  const feed = fixture<Raw.RawMediaFeed>('feed_user');
  const items = feed.items ?? [];

  it('maps an image with caption mentions, tags and a location', () => {
    expect(mapPost(items[0] as Raw.RawMedia)).toStrictEqual(
      post({
        postId: '3118540016291233891',
        shortcode: 'CtHQ2x4yK5j',
        format: 'image',
        publishedAt: 1793256575,
        likeCount: 2310,
        commentCount: 41,
        mentions: [
          jisoo,
          summary({ handle: 'hana.lee' }),
          summary({
            accountId: '91726354',
            handle: 'sora.film',
            displayName: 'Sora',
            isPrivate: true,
            isVerified: false,
          }),
        ],
        hashtags: ['coffeetime', 'seoul', 'cafe'],
        captionPreview:
          'Sunday mornings like this ☕️ with @jisoo_bakes and @Hana.Lee.\n#CoffeeTime #seoul #cafe #seoul',
        owner: mina,
        location: {
          placeId: '213385402',
          name: 'Seoul, South Korea',
          city: 'Seoul',
          address: null,
          latitude: 37.5665,
          longitude: 126.978,
          postCount: null,
        },
        isPaidPartnership: false,
      }),
    );
  });

  it('maps a reel: views, duration, no caption (hashtags null), id from `id` when pk is lossy', () => {
    expect(mapPost(items[1] as Raw.RawMedia)).toStrictEqual(
      post({
        postId: '3118300000000000000',
        shortcode: 'CtGvR0aJbQx',
        format: 'video',
        publishedAt: 1792900100,
        likeCount: 980,
        commentCount: 12,
        viewCount: 40412,
        durationSeconds: 14.833,
        owner: mina,
        isPaidPartnership: false,
      }),
    );
  });

  it('maps a paid-partnership carousel with a truncated caption', () => {
    expect(mapPost(items[2] as Raw.RawMedia)).toStrictEqual(
      post({
        postId: '3117900000000000001',
        shortcode: 'CtFa9PqL0mW',
        format: 'carousel',
        publishedAt: 1792500000,
        likeCount: 5120,
        commentCount: 88,
        mentions: [glowlab],
        hashtags: ['ad', 'skincare', 'kbeauty'],
        captionPreview:
          'My current skincare routine, step by step 🧴✨ I have been using these for three months now and my skin has honestly never been calmer. Thank you @glow…',
        owner: mina,
        isPaidPartnership: true,
        sponsorAccounts: [glowlab],
        carousel: [
          { postId: '3117900000000000002', format: 'image' },
          { postId: '3117900000000000003', format: 'video' },
          { postId: '3117900000000000004', format: 'image' },
        ],
      }),
    );
  });

  it('maps an item with missing fields (no media_type, no user, partial location)', () => {
    expect(mapPost(items[3] as Raw.RawMedia)).toStrictEqual(
      post({
        postId: '3117500000000000000',
        shortcode: 'CtE1xYz',
        format: 'video',
        publishedAt: 1792100000,
        hashtags: [],
        captionPreview: 'no tags here, just vibes',
        location: {
          placeId: '1024364512',
          name: 'Seongsu',
          city: null,
          address: null,
          latitude: null,
          longitude: null,
          postCount: 48211,
        },
      }),
    );
  });

  it('pages with the platform token, and ends when more_available is false', () => {
    const page = mapPage(feed.items, (m) => mapPost(m), feed.next_max_id, feed.more_available);
    expect(page.items).toHaveLength(4);
    expect(page.nextPageToken).toBe('3117500000000000000_5831927730');
    expect(mapPage([], (m) => m, 'x', false).nextPageToken).toBeNull();
    expect(mapPage([], (m) => m, undefined).nextPageToken).toBeNull();
    const tagged = fixture<Raw.RawMediaFeed>('usertags_feed');
    const taggedPage = mapPage(
      tagged.items,
      (m) => mapPost(m),
      tagged.next_max_id,
      tagged.more_available,
    );
    expect(taggedPage.nextPageToken).toBeNull();
    expect(taggedPage.items[0]?.owner).toStrictEqual(jisoo);
    expect(taggedPage.items[0]?.mentions).toStrictEqual([
      summary({ accountId: '5831927730', handle: 'mina.kim', displayName: 'Mina Kim 김민아' }),
    ]);
  });
});

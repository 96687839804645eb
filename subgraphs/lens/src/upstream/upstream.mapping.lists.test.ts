import { describe, expect, it } from 'vitest';
import { glowlab, jisoo, mina, post, summary } from './fixtures/expected.js';
import { fixture } from './fixtures/load.js';
import {
  mapAbout,
  mapAccountSummary,
  mapBroadcast,
  mapGuide,
  mapHighlight,
  mapPage,
  mapStorySet,
} from './upstream.mapping.js';
import type * as Raw from './upstream.raw.js';

/** Raw account lists, guides, reels, broadcasts and about JSON → the documented fields. */

describe('account list mapping', () => {
  it('maps friendship users (short form: counts and biography null)', () => {
    const raw = fixture<Raw.RawUserList>('friendships_followers');
    expect(mapPage(raw.users, mapAccountSummary, raw.next_max_id)).toStrictEqual({
      items: [
        jisoo,
        summary({ accountId: '91726354', handle: 'sora.film', isPrivate: true, isVerified: false }),
        summary({
          accountId: '4039283749201938471',
          handle: 'the.lena.home',
          displayName: 'Lena',
          isPrivate: false,
          isVerified: true,
        }),
      ],
      nextPageToken: '3',
    });
  });

  it('maps search users, follower_count included', () => {
    const raw = fixture<Raw.RawTopSearch>('topsearch');
    const users = (raw.users ?? []).flatMap((u) => (u.user ? [mapAccountSummary(u.user)] : []));
    expect(users).toStrictEqual([
      summary({
        accountId: '269320635',
        handle: 'coffee',
        displayName: 'Coffee',
        isPrivate: false,
        isVerified: true,
        followerCount: 85561,
      }),
      summary({
        accountId: '10234184168',
        handle: 'coffee_',
        displayName: 'Clara Park',
        isPrivate: false,
        isVerified: false,
      }),
      summary({
        accountId: '4449610546693762810',
        handle: 'coffee.official',
        displayName: 'Coffee Official',
        isPrivate: true,
        isVerified: false,
        followerCount: 994740,
      }),
    ]);
  });

  it('maps suggested accounts', () => {
    const raw = fixture<Raw.RawUserList>('discover_chaining');
    expect((raw.users ?? []).map(mapAccountSummary)).toStrictEqual([
      jisoo,
      summary({
        accountId: '30051122',
        handle: 'glowlab',
        displayName: 'GLOWLAB',
        isVerified: true,
      }),
    ]);
  });
});

describe('guides, stories, highlights, broadcast, about', () => {
  it('maps guides, skipping empty items, with a description preview', () => {
    const raw = fixture<Raw.RawGuideFeed>('guides_user');
    const page = mapPage(raw.guides, mapGuide, raw.next_max_id, raw.more_available);
    expect(page.nextPageToken).toBe('4');
    expect(page.items).toStrictEqual([
      {
        guideId: '17912345600012345',
        title: 'Where to eat in Seongsu',
        descriptionPreview:
          'Where to eat in Seongsu: the places and things I keep coming back to. Honestly did not expect it to be this good. Updated whenever I find something n…',
        owner: mina,
        posts: [
          post({
            postId: '3960722401715115729',
            shortcode: 'Db3UAogKVbR',
            format: 'image',
            publishedAt: 1786374925,
            likeCount: 411,
            commentCount: 9,
            hashtags: ['seongsu'],
            captionPreview: 'Best brunch in #seongsu',
            owner: summary({ accountId: '5831927730', handle: 'mina.kim' }),
          }),
        ],
      },
      {
        guideId: '17912345600012346',
        title: null,
        descriptionPreview: null,
        owner: summary({}),
        posts: [],
      },
    ]);
  });

  it('maps a story set: reel mentions, story hashtags, story location, expiry, the given owner', () => {
    const reels = fixture<Raw.RawReelsMedia>('reels_media').reels ?? {};
    expect(mapStorySet(mina, reels['5831927730'])).toStrictEqual({
      account: mina,
      stories: [
        post({
          postId: '3119000000000000001',
          shortcode: 'DfA1',
          format: 'image',
          publishedAt: 1793470000,
          expiresAt: 1793556400,
          mentions: [glowlab],
          hashtags: ['kbeauty'],
          owner: mina,
          location: {
            placeId: '7226110',
            name: 'Hongdae',
            city: 'Seoul',
            address: 'Mapo-gu',
            latitude: 37.5563,
            longitude: 126.9237,
            postCount: null,
          },
        }),
        post({
          postId: '3119000000000000002',
          shortcode: 'DfA2',
          format: 'video',
          publishedAt: 1793480000,
          durationSeconds: 7.2,
          expiresAt: 1793566400,
          owner: mina,
        }),
      ],
    });
    expect(mapStorySet(mina, undefined)).toStrictEqual({ account: mina, stories: [] });
  });

  it('maps highlights, with and without their reel', () => {
    const tray = fixture<Raw.RawHighlightsTray>('highlights_tray').tray ?? [];
    const reels = fixture<Raw.RawReelsMedia>('reels_media').reels ?? {};
    const [tokyo, food] = tray.map((t) => mapHighlight(t, reels[String(t.id)]));
    expect(tokyo).toStrictEqual({
      highlightId: '17934390836227915',
      title: 'Tokyo',
      itemCount: 1,
      owner: mina,
      stories: [
        post({
          postId: '3000000000000000010',
          shortcode: 'C0aa',
          publishedAt: 1765929600,
          owner: mina,
        }),
      ],
    });
    expect(food).toStrictEqual({
      highlightId: '17912345678901234',
      title: 'Food',
      itemCount: null,
      owner: mina,
      stories: [],
    });
  });

  it('maps a live broadcast and an account that is not live', () => {
    expect(mapBroadcast(fixture<Raw.RawLiveInfo>('live_web_info'))).toStrictEqual({
      broadcastId: '17988712345678901',
      state: 'live',
      startedAt: 1793488000,
      viewerCount: 312,
      owner: mina,
    });
    expect(mapBroadcast(fixture<Raw.RawLiveInfo>('live_web_info_offline'))).toStrictEqual({
      broadcastId: null,
      state: 'offline',
      startedAt: null,
      viewerCount: null,
      owner: mina,
    });
  });

  it('maps about-this-account (month labels → YYYY-MM)', () => {
    expect(mapAbout(fixture<Raw.RawAbout>('about_this_account'))).toStrictEqual({
      accountId: '5831927730',
      joinedAt: '2016-03',
      country: 'South Korea',
      formerHandleCount: 2,
      sharedFollowerAccountCount: 0,
      verifiedAt: null,
      isVerified: false,
    });
    expect(mapAbout({})).toStrictEqual({
      accountId: null,
      joinedAt: null,
      country: null,
      formerHandleCount: null,
      sharedFollowerAccountCount: null,
      verifiedAt: null,
      isVerified: null,
    });
  });
});

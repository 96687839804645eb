import { describe, expect, it } from 'vitest';
import { monthOf, parseHashtags, parseMentions, preview } from './upstream.text.js';

describe('caption text', () => {
  it('parses hashtags: unicode, lower-cased, no duplicates, not inside words or entities', () => {
    expect(parseHashtags('Hi #Seoul #서울여행 #seoul a#b &#39; #k_beauty2')).toEqual([
      'seoul',
      '서울여행',
      'k_beauty2',
    ]);
  });
  it('parses mentions: not e-mail addresses, without a trailing dot', () => {
    expect(parseMentions('with @Mina.Kim. and hello@brand.com, @jisoo_bakes @mina.kim')).toEqual([
      'mina.kim',
      'jisoo_bakes',
    ]);
  });
  it('previews by graphemes, never splitting an emoji', () => {
    const family = '👩‍👩‍👧‍👦';
    const long = `${'a'.repeat(148)}${family}${family}xyz`;
    expect(preview(long)).toBe(`${'a'.repeat(148)}${family}…`);
    expect(preview('short')).toBe('short');
    expect(preview(null)).toBeNull();
  });
  it('reads month labels', () => {
    expect(monthOf('June 2021')).toBe('2021-06');
    expect(monthOf(null, 1456790400)).toBe('2016-03');
    expect(monthOf('sometime')).toBe('sometime');
    expect(monthOf(undefined)).toBeNull();
  });
});

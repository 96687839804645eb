import { describe, expect, it } from 'vitest';
import { escapeHtml, formatAmount, formatTime } from './format.js';

describe('e-mail formatting', () => {
  it('shows amounts in won with thousands separators and two decimals, from strings only', () => {
    expect(formatAmount('1100006.00')).toBe('KRW 1,100,006.00');
    expect(formatAmount('0.5')).toBe('KRW 0.50');
    expect(formatAmount('999')).toBe('KRW 999.00');
    expect(formatAmount('1000')).toBe('KRW 1,000.00');
    expect(formatAmount('9999999999999.99')).toBe('KRW 9,999,999,999,999.99');
    expect(formatAmount('-23100.00')).toBe('KRW -23,100.00');
    expect(formatAmount('0012.300')).toBe('KRW 12.30');
    expect(() => formatAmount('1.234')).toThrow(/more than two decimals/);
    expect(() => formatAmount('1e6')).toThrow(/not a decimal/);
    expect(() => formatAmount('')).toThrow(/not a decimal/);
  });

  it('escapes text for HTML content and attributes', () => {
    expect(escapeHtml(`<b onclick="x">'Tom' & "Jerry"</b>`)).toBe(
      '&lt;b onclick=&quot;x&quot;&gt;&#39;Tom&#39; &amp; &quot;Jerry&quot;&lt;/b&gt;',
    );
  });

  it('shows times in Korean time', () => {
    expect(formatTime('2026-12-01T05:10:00.000Z')).toBe('2026-12-01 14:10 KST');
    expect(formatTime('2026-12-31T15:00:00Z')).toBe('2027-01-01 00:00 KST');
    expect(() => formatTime('soon')).toThrow(/not a time/);
  });
});

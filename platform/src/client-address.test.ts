import { describe, expect, it } from 'vitest';
import { forwardedClientAddress, PROXY_SECRET_HEADER, trustProxyVar } from './client-address.js';

const SECRET = 'the-proxy-secret-of-this-test';

describe('forwardedClientAddress (gateway)', () => {
  it("believes the adapter's X-Forwarded-For, which carries the proxy secret", () => {
    const headers = { 'x-forwarded-for': '203.0.113.7', [PROXY_SECRET_HEADER]: SECRET };
    expect(forwardedClientAddress(headers, '127.0.0.1', SECRET)).toBe('203.0.113.7');
  });

  it('takes the first address of a list', () => {
    const headers = { 'x-forwarded-for': ' 203.0.113.7 , 10.0.0.1', [PROXY_SECRET_HEADER]: SECRET };
    expect(forwardedClientAddress(headers, '127.0.0.1', SECRET)).toBe('203.0.113.7');
  });

  it("overwrites anyone else's: no secret, a wrong one, or a repeated header", () => {
    const spoofed = { 'x-forwarded-for': '198.51.100.1' };
    expect(forwardedClientAddress(spoofed, '192.0.2.9', SECRET)).toBe('192.0.2.9');
    expect(
      forwardedClientAddress({ ...spoofed, [PROXY_SECRET_HEADER]: 'guess' }, '192.0.2.9', SECRET),
    ).toBe('192.0.2.9');
    expect(
      forwardedClientAddress(
        { ...spoofed, [PROXY_SECRET_HEADER]: [SECRET, SECRET] },
        '192.0.2.9',
        SECRET,
      ),
    ).toBe('192.0.2.9');
  });

  it('uses the connection when the adapter sent no address', () => {
    expect(forwardedClientAddress({ [PROXY_SECRET_HEADER]: SECRET }, '192.0.2.9', SECRET)).toBe(
      '192.0.2.9',
    );
  });
});

describe('trustProxyVar (REST_TRUST_PROXY)', () => {
  it('reads true, false (the default) and lists of proxy addresses', () => {
    expect(trustProxyVar.parse(undefined)).toBe(false);
    expect(trustProxyVar.parse('false')).toBe(false);
    expect(trustProxyVar.parse('true')).toBe(true);
    expect(trustProxyVar.parse('10.0.0.0/8, ::1')).toEqual(['10.0.0.0/8', '::1']);
  });

  it('refuses anything else', () => {
    for (const bad of ['yes', '', '10.0.0.0/8,load-balancer', '2'])
      expect(trustProxyVar.safeParse(bad).success).toBe(false);
  });
});

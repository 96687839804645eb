import { describe, expect, it } from 'vitest';
import { errorBody } from '@campaign/schema';
import { bearerChallenge, challengeOf } from './auth-challenge.js';

describe('WWW-Authenticate challenges (issue 21)', () => {
  it('Bearer: the realm, invalid_token when a token was sent, resource_metadata when given', () => {
    expect(bearerChallenge({ tokenSent: false })).toBe('Bearer realm="campaign-platform"');
    expect(bearerChallenge({ tokenSent: true })).toBe(
      'Bearer realm="campaign-platform", error="invalid_token"',
    );
    expect(
      bearerChallenge({
        tokenSent: false,
        resourceMetadata: 'http://127.0.0.1:8080/.well-known/oauth-protected-resource/mcp',
      }),
    ).toBe(
      'Bearer realm="campaign-platform", ' +
        'resource_metadata="http://127.0.0.1:8080/.well-known/oauth-protected-resource/mcp"',
    );
  });

  it('by code: the webhook names its own scheme; a blank Authorization is no token', () => {
    const unauthenticated = errorBody('UNAUTHENTICATED', 'no');
    expect(challengeOf(unauthenticated, '  ')).toBe('Bearer realm="campaign-platform"');
    expect(challengeOf(unauthenticated, 'Basic abc')).toContain('error="invalid_token"');
    expect(challengeOf(errorBody('WEBHOOK_SIGNATURE_INVALID', 'no'), undefined)).toMatch(
      /^Signature realm="tax-invoice-webhook", header="X-Signature"/,
    );
  });
});

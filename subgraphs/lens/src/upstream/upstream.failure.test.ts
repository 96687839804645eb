import { describe, expect, it } from 'vitest';
import { fixture } from './fixtures/load.js';
import { failureOf } from './upstream.failure.js';

describe('failures', () => {
  const errors = fixture<Record<string, unknown>>('errors');
  it.each([
    [404, 'notFound', 'NOT_FOUND'],
    [400, 'notAuthorized', 'PRIVATE'],
    [429, 'rateLimited', 'RATE_LIMITED'],
    [400, 'rateLimited', 'RATE_LIMITED'],
    [400, 'spam', 'RATE_LIMITED'],
    [400, 'featureUnavailable', 'UNSUPPORTED'],
    [401, 'loginRequired', 'UNAVAILABLE'],
    [503, 'serverError', 'UNAVAILABLE'],
    [500, 'notAuthorized', 'UNAVAILABLE'],
    [418, 'nothing', 'UNAVAILABLE'],
  ])('HTTP %i with %s → %s', (status, body, kind) => {
    expect(failureOf(status, errors[body]).kind).toBe(kind);
  });
});

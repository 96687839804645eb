import { describe, expect, it } from 'vitest';
import { httpError, httpErrorOf } from '../errors.js';
import type { Envelope } from '../routes/lens.routes.js';
import {
  envelopeResult,
  META_ERROR,
  META_OBSERVED_AT,
  refusalResult,
  toolWords,
} from './results.js';

const envelope = (over: Partial<Envelope>): Envelope => ({
  operationId: '6f1c1d2e-0a0b-4c3d-8e9f-0123456789ab',
  operationName: 'accounts.profile',
  status: 'SUCCEEDED',
  data: { handle: 'minji.daily' },
  error: null,
  credits: { reserved: 1, charged: 1, refunded: 0 },
  replayed: false,
  observedAt: '2026-12-01T00:00:00.000Z',
  ...over,
});
const text = (result: { content: unknown[] }) =>
  (result.content as { text: string }[]).map((c) => c.text).join('\n');

describe('an operation answers its REST envelope as structured content', () => {
  it('SUCCEEDED: the closed envelope, the observation time beside it', () => {
    const result = envelopeResult(envelope({}));
    expect(result.isError).toBeUndefined();
    expect(result.structuredContent).toEqual({
      operationId: '6f1c1d2e-0a0b-4c3d-8e9f-0123456789ab',
      operationName: 'accounts.profile',
      status: 'SUCCEEDED',
      data: { handle: 'minji.daily' },
      credits: { reserved: 1, charged: 1, refunded: 0 },
      replayed: false,
    });
    expect(result._meta).toEqual({ [META_OBSERVED_AT]: '2026-12-01T00:00:00.000Z' });
    expect(text(result)).toContain('"operationId"');
  });

  it('RUNNING: tells the model to follow it with lens_operations_status', () => {
    const result = envelopeResult(envelope({ status: 'RUNNING', data: null, observedAt: null }));
    expect(result.isError).toBeUndefined();
    expect(text(result)).toContain(
      'Call lens_operations_status with operationId "6f1c1d2e-0a0b-4c3d-8e9f-0123456789ab"',
    );
  });

  it('FAILED: an error result with the failure’s code; the status look-up is not', () => {
    const error = {
      code: 'UPSTREAM_UNAVAILABLE',
      message: 'down',
      httpStatus: 503,
      retryable: true,
    };
    const failed = envelope({ status: 'FAILED', data: null, error });
    const result = envelopeResult(failed);
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({ status: 'FAILED', error });
    expect(text(result)).toContain('with a NEW requestKey');
    expect(envelopeResult(failed, true).isError).toBeUndefined();
  });
});

describe('a refusal is an error result with code, HTTP-equivalent status and retryable', () => {
  it('402: top up, the same requestKey is fine', () => {
    const result = refusalResult(httpError('INSUFFICIENT_CREDITS', 'needs 13 credits'));
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toBeUndefined();
    expect(result._meta?.[META_ERROR]).toEqual({
      code: 'INSUFFICIENT_CREDITS',
      message: 'needs 13 credits',
      httpStatus: 402,
      retryable: false,
    });
    expect(text(result)).toContain('Insufficient credits: top up');
    expect(text(result)).toContain('retry with the same requestKey');
  });

  it('429: wait the seconds lens named, then retry with the same requestKey', () => {
    const limited = httpErrorOf({
      message: 'Too many requests',
      extensions: { code: 'RATE_LIMITED', retryAfterSeconds: 42 },
    });
    const result = refusalResult(limited);
    expect(text(result)).toContain('wait 42 seconds, then retry with the same requestKey');
    expect(result._meta).toMatchObject({ 'lens/retryAfterSeconds': 42 });
  });

  it('409 and 400 speak of requestKey and arguments, not headers and bodies', () => {
    expect(toolWords('This Idempotency-Key was used')).toBe('This requestKey was used');
    expect(toolWords('body.accountRef: bad')).toBe('arguments.accountRef: bad');
    const reused = refusalResult(
      httpError('IDEMPOTENCY_KEY_REUSED', 'This Idempotency-Key was used'),
    );
    expect(text(reused)).toContain('use a new requestKey');
    expect(text(reused)).toContain('HTTP 409');
  });
});

import { describe, expect, it } from 'vitest';
import { errorBody } from '@campaign/schema';
import { envelopeResponse } from './lens.routes.js';

const envelope = (status: 'RUNNING' | 'SUCCEEDED' | 'FAILED' | 'RECONCILIATION_REQUIRED') => ({
  operationId: '9b1deb4d-3b7d-4bad-9bdd-2b0d7b3dcb6d',
  operationName: 'accounts.profile',
  status,
  data: null,
  error: null,
  credits: { reserved: 1, charged: 0, refunded: status === 'FAILED' ? 1 : 0 },
  replayed: false,
  observedAt: null,
});

describe('an operation’s HTTP status follows its state (DESIGN.md L1, L4, L5)', () => {
  it('FAILED with EXECUTION_FAILED is a 500 carrying the envelope (and its operation id)', () => {
    const error = errorBody('EXECUTION_FAILED', 'The execution failed unexpectedly.');
    const response = envelopeResponse({ ...envelope('FAILED'), error });
    expect(response.status).toBe(500);
    expect(response.body).toEqual({
      success: false,
      error,
      data: {
        operationId: '9b1deb4d-3b7d-4bad-9bdd-2b0d7b3dcb6d',
        operationName: 'accounts.profile',
        status: 'FAILED',
        error,
        credits: { reserved: 1, charged: 0, refunded: 1 },
        replayed: false,
      },
    });
  });

  it('RUNNING and RECONCILIATION_REQUIRED are 202; the status endpoint is always 200', () => {
    expect(envelopeResponse(envelope('RUNNING')).status).toBe(202);
    expect(envelopeResponse(envelope('RECONCILIATION_REQUIRED')).status).toBe(202);
    const error = errorBody('UPSTREAM_UNAVAILABLE', 'down');
    expect(envelopeResponse({ ...envelope('FAILED'), error }).status).toBe(503);
    expect(envelopeResponse({ ...envelope('FAILED'), error }, true).status).toBe(200);
  });
});

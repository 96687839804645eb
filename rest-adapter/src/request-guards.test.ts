import type { Socket } from 'node:net';
import type { ConnectionError } from 'fastify';
import { describe, expect, it } from 'vitest';
import { clientErrorHandler } from './request-guards.js';

/** A socket that records what is written to it. */
function fakeSocket() {
  const written: string[] = [];
  let destroyed = false;
  const socket = {
    get destroyed() {
      return destroyed;
    },
    writable: true,
    write: (chunk: string) => written.push(chunk),
    destroy: () => {
      destroyed = true;
    },
  };
  return { socket: socket as unknown as Socket, written, isDestroyed: () => destroyed };
}

function parserError(code: string, raw: string, bytesParsed: number): ConnectionError {
  return Object.assign(new Error(code), {
    code,
    bytesParsed,
    rawPacket: Buffer.from(raw, 'latin1'),
  }) as unknown as ConnectionError;
}

const bodyOf = (response: string) => JSON.parse(response.slice(response.indexOf('\r\n\r\n') + 4));

describe('clientErrorHandler', () => {
  it('answers a control byte in a header as INVALID_REQUEST naming the header', () => {
    const raw = 'POST /x HTTP/1.1\r\nHost: h\r\nIdempotency-Key: a\u0000b\r\n\r\n';
    const { socket, written, isDestroyed } = fakeSocket();
    clientErrorHandler(parserError('HPE_INVALID_HEADER_TOKEN', raw, raw.indexOf('\u0000')), socket);
    const response = written.join('');
    expect(response).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    expect(response).toContain('x-content-type-options: nosniff\r\n');
    expect(response).toContain('cache-control: no-store\r\n');
    expect(bodyOf(response)).toEqual({
      success: false,
      error: {
        code: 'INVALID_REQUEST',
        message: expect.stringMatching(/^Idempotency-Key: /),
        httpStatus: 400,
        retryable: false,
      },
    });
    expect(isDestroyed()).toBe(true);
  });

  it('does not echo what is not a header name', () => {
    const raw = 'GET /x HTTP/1.1\r\nBad Name\u0001: v\r\n\r\n';
    const { socket, written } = fakeSocket();
    clientErrorHandler(parserError('HPE_INVALID_HEADER_TOKEN', raw, raw.indexOf('\u0001')), socket);
    expect(bodyOf(written.join('')).error.message).toBe('The request is not valid HTTP/1.1.');
  });

  it('keeps 408 for a timeout and writes nothing to a reset connection', () => {
    const timeout = fakeSocket();
    clientErrorHandler(parserError('ERR_HTTP_REQUEST_TIMEOUT', '', 0), timeout.socket);
    expect(timeout.written.join('')).toMatch(/^HTTP\/1\.1 408 /);
    const reset = fakeSocket();
    clientErrorHandler(parserError('ECONNRESET', '', 0), reset.socket);
    expect(reset.written).toEqual([]);
  });
});

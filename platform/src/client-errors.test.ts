import type { Socket } from 'node:net';
import type { ConnectionError } from 'fastify';
import { describe, expect, it } from 'vitest';
import { clientErrorHandler } from './client-errors.js';

const SECURITY = { 'x-content-type-options': 'nosniff', 'cache-control': 'no-store' };
const handler = clientErrorHandler({
  headers: SECURITY,
  allowOf: (path) => (path === '/known' ? ['GET', 'HEAD', 'POST'] : null),
});

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
    handler(parserError('HPE_INVALID_HEADER_TOKEN', raw, raw.indexOf('\u0000')), socket);
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
    handler(parserError('HPE_INVALID_HEADER_TOKEN', raw, raw.indexOf('\u0001')), socket);
    expect(bodyOf(written.join('')).error.message).toBe('The request is not valid HTTP/1.1.');
  });

  it('answers headers over the limit 431 REQUEST_HEADERS_TOO_LARGE', () => {
    const { socket, written } = fakeSocket();
    handler(parserError('HPE_HEADER_OVERFLOW', 'GET / HTTP/1.1\r\nX: aaaa', 20), socket);
    const response = written.join('');
    expect(response).toMatch(/^HTTP\/1\.1 431 Request Header Fields Too Large\r\n/);
    expect(bodyOf(response).error).toMatchObject({
      code: 'REQUEST_HEADERS_TOO_LARGE',
      httpStatus: 431,
    });
  });

  it('answers a method the parser does not know: 405 with Allow on a known path, else 400', () => {
    const known = fakeSocket();
    handler(
      parserError('HPE_INVALID_METHOD', 'FROB /known HTTP/1.1\r\nHost: h\r\n\r\n', 4),
      known.socket,
    );
    const response = known.written.join('');
    expect(response).toMatch(/^HTTP\/1\.1 405 Method Not Allowed\r\n/);
    expect(response).toContain('allow: GET, HEAD, POST\r\n');
    expect(bodyOf(response).error.code).toBe('METHOD_NOT_ALLOWED');
    const unknown = fakeSocket();
    handler(parserError('HPE_INVALID_METHOD', 'FROB /other HTTP/1.1\r\n\r\n', 4), unknown.socket);
    expect(bodyOf(unknown.written.join('')).error).toMatchObject({
      code: 'INVALID_REQUEST',
      message: 'FROB is not an HTTP method this server knows.',
    });
  });

  it('keeps 408 for a timeout and writes nothing to a reset connection', () => {
    const timeout = fakeSocket();
    handler(parserError('ERR_HTTP_REQUEST_TIMEOUT', '', 0), timeout.socket);
    expect(timeout.written.join('')).toMatch(/^HTTP\/1\.1 408 /);
    const reset = fakeSocket();
    handler(parserError('ECONNRESET', '', 0), reset.socket);
    expect(reset.written).toEqual([]);
  });
});

import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { ConnectionError } from 'fastify';
import { errorBody, errorCatalogue, type ErrorCode } from '@campaign/schema';

/**
 * Requests Node's HTTP parser refuses never reach fastify's handlers, and fastify's default
 * answers all of them 400 with a body of its own. Every service answers them here instead, in the
 * catalogue's shape and with the status HTTP names for the problem: 431 for headers over Node's
 * limit (16 KiB), 405 for a method the parser does not know on a path that exists, 408 for a
 * request that never finished, 400 for the rest (a control byte in a header, a malformed line).
 */
export interface ClientErrorOptions {
  /** Headers every answer of the service carries (the REST adapter's nosniff and no-store). */
  headers?: Readonly<Record<string, string>>;
  /** The methods `path` answers to, or null when no route has it (for the 405's Allow). */
  allowOf?: (path: string) => readonly string[] | null;
}

/** The header a parser error points at: the line that `bytesParsed` stopped in, if a header. */
function headerAt(error: ConnectionError): string | null {
  const raw: unknown = error.rawPacket;
  if (!Buffer.isBuffer(raw) || typeof error.bytesParsed !== 'number') return null;
  const head = raw.subarray(0, error.bytesParsed).toString('latin1');
  const line = head.slice(head.lastIndexOf('\n') + 1);
  return /^([!#$%&'*+.^_`|~0-9A-Za-z-]{1,64}):/.exec(line)?.[1] ?? null;
}

/** The method and path of the request line, when the packet starts with one. */
function requestLine(error: ConnectionError): { method: string; path: string } | null {
  const raw: unknown = error.rawPacket;
  if (!Buffer.isBuffer(raw)) return null;
  const line =
    /^([!#$%&'*+.^_`|~0-9A-Za-z-]{1,32}) (\/[^ ?\r\n]{0,2048})\S* HTTP\/1\.[01]\r?\n/.exec(
      raw.subarray(0, 2200).toString('latin1'),
    );
  return line ? { method: line[1]!, path: line[2]! } : null;
}

interface Refusal {
  code: ErrorCode;
  message: string;
  headers?: Record<string, string>;
}

function refusalOf(error: ConnectionError, options: ClientErrorOptions): Refusal {
  if (error.code === 'HPE_HEADER_OVERFLOW') {
    return {
      code: 'REQUEST_HEADERS_TOO_LARGE',
      message: 'The request headers are larger than the server accepts (16 KiB in all).',
    };
  }
  if (error.code === 'HPE_INVALID_METHOD') {
    const line = requestLine(error);
    const allow = line && options.allowOf?.(line.path);
    if (line && allow?.length) {
      return {
        code: 'METHOD_NOT_ALLOWED',
        message: `${line.method} is not a method of ${line.path}; it answers ${allow.join(', ')}.`,
        headers: { allow: allow.join(', ') },
      };
    }
    const method = line ? `${line.method} is` : 'The method is';
    return { code: 'INVALID_REQUEST', message: `${method} not an HTTP method this server knows.` };
  }
  const header = headerAt(error);
  if (header && error.code === 'HPE_INVALID_HEADER_TOKEN') {
    return {
      code: 'INVALID_REQUEST',
      message: `${header}: the header value holds a control character (such as NUL), which HTTP does not allow.`,
    };
  }
  return { code: 'INVALID_REQUEST', message: 'The request is not valid HTTP/1.1.' };
}

const headerLines = (headers: Readonly<Record<string, string>>) =>
  Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');

/** fastify's `clientErrorHandler` answering in the catalogue's shape (see above). */
export function clientErrorHandler(options: ClientErrorOptions = {}) {
  return (error: ConnectionError, socket: Socket): void => {
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    if (socket.writable) {
      const always = headerLines(options.headers ?? {});
      if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
        socket.write(`HTTP/1.1 408 Request Timeout\r\n${always}Connection: close\r\n\r\n`);
      } else {
        const refusal = refusalOf(error, options);
        const status = errorCatalogue[refusal.code].httpStatus;
        const body = JSON.stringify({
          success: false,
          error: errorBody(refusal.code, refusal.message),
        });
        socket.write(
          `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n${always}${headerLines(refusal.headers ?? {})}` +
            `Content-Type: application/json; charset=utf-8\r\n` +
            `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
        );
      }
    }
    socket.destroy(error);
  };
}

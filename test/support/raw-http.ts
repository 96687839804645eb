import { connect } from 'node:net';
import { stack } from './clients.js';
import { assertDocumented } from './settlement-openapi.js';

export interface RawResponse {
  status: number;
  /** Lower-case names; a repeated header keeps its last value. */
  headers: Record<string, string>;
  body: Record<string, unknown> | null;
}

/**
 * One HTTP/1.1 request written byte for byte to the REST adapter over a plain socket. fetch and
 * node:http refuse to send what these tests need to send (a NUL byte in a header value, the same
 * header twice), so the request is written by hand; `headers` is a list so a name can repeat.
 */
export function rawRequest(
  method: string,
  path: string,
  headers: [string, string][],
  body?: unknown,
): Promise<RawResponse> {
  const url = new URL(stack().rest);
  const payload = body === undefined ? '' : JSON.stringify(body);
  const lines = [
    `${method} ${path} HTTP/1.1`,
    `Host: ${url.host}`,
    'Connection: close',
    ...(body === undefined
      ? []
      : ['Content-Type: application/json', `Content-Length: ${Buffer.byteLength(payload)}`]),
    ...headers.map(([name, value]) => `${name}: ${value}`),
  ];
  // latin1: every character of a header is sent as the one byte it stands for (NUL included).
  const head = Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1');
  return new Promise((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname, () => {
      // Not end(): a client that half-closes first gets its request aborted by Node's server.
      // `Connection: close` makes the server close the socket once it has answered.
      socket.write(Buffer.concat([head, Buffer.from(payload, 'utf8')]));
    });
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      try {
        const response = parse(Buffer.concat(chunks));
        const { status, headers, body: answer } = response;
        assertDocumented(method, path, status, headers['content-type'] ?? null, answer);
        resolve(response);
      } catch (error) {
        reject(error as Error);
      }
    });
  });
}

function parse(raw: Buffer): RawResponse {
  const split = raw.indexOf('\r\n\r\n');
  if (split < 0) throw new Error(`no HTTP response: ${JSON.stringify(raw.toString('latin1'))}`);
  const { status, headers } = parseHead(raw.subarray(0, split));
  // The adapter answers JSON with a Content-Length (never chunked), so the rest is the body.
  const body = raw.subarray(split + 4).toString('utf8');
  return { status, headers, body: body ? (JSON.parse(body) as Record<string, unknown>) : null };
}

/** The status and headers of an HTTP/1.1 answer's head (lower-case names; a repeat keeps the last). */
export function parseHead(head: Buffer): { status: number; headers: Record<string, string> } {
  const [statusLine, ...headerLines] = head.toString('latin1').split('\r\n');
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(statusLine ?? '')?.[1]);
  const headers: Record<string, string> = {};
  for (const line of headerLines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { status, headers };
}

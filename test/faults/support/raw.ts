import { connect } from 'node:net';
import { parseHead } from '../../support/raw-http.js';

export interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  /** The parsed JSON body, or the text when it is not JSON. */
  body: unknown;
}

/** Undoes `Transfer-Encoding: chunked`. */
function unchunk(raw: Buffer): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const end = raw.indexOf('\r\n', at);
    if (end < 0) break;
    const size = parseInt(raw.subarray(at, end).toString('latin1'), 16);
    if (!size) break;
    parts.push(raw.subarray(end + 2, end + 2 + size));
    at = end + 2 + size + 2;
  }
  return Buffer.concat(parts);
}

/**
 * One HTTP/1.1 request written byte for byte (a header may repeat or hold a NUL, which fetch
 * refuses to send). Header values are sent as the UTF-8 bytes of their text.
 */
export function rawRequest(
  base: string,
  method: string,
  path: string,
  headers: [string, string][],
  body?: Buffer,
): Promise<RawAnswer> {
  const url = new URL(base);
  const lines = [
    `${method} ${path} HTTP/1.1`,
    `Host: ${url.host}`,
    'Connection: close',
    ...(body === undefined ? [] : [`Content-Length: ${body.length}`]),
    ...headers.map(([name, value]) => `${name}: ${value}`),
  ];
  const head = Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'utf8');
  return new Promise((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname, () => {
      socket.write(body ? Buffer.concat([head, body]) : head);
    });
    socket.setTimeout(30_000, () =>
      socket.destroy(new Error(`${method} ${path}: no answer in 30 s`)),
    );
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const raw = Buffer.concat(chunks);
      const split = raw.indexOf('\r\n\r\n');
      if (split < 0) return reject(new Error(`${method} ${path}: no HTTP answer`));
      const { status, headers: answerHeaders } = parseHead(raw.subarray(0, split));
      let payload: Buffer = raw.subarray(split + 4);
      if (answerHeaders['transfer-encoding'] === 'chunked') payload = unchunk(payload);
      const text = payload.toString('utf8');
      let parsed: unknown = text;
      try {
        parsed = text ? JSON.parse(text) : null;
      } catch {
        // Not JSON: the property that reads it says so.
      }
      resolve({ status, headers: answerHeaders, body: parsed });
    });
  });
}

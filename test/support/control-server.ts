import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What a control request answers: an HTTP status and a JSON body (`{}` when none). */
export type ControlAnswer = [status: number, body?: unknown];

export interface ControlServer {
  url: string;
  close(): Promise<void>;
}

/**
 * The small loopback server through which a test reaches what lives in a global setup's process:
 * a faults test drives its database, proxies and counters, a tier's setup file asks for its
 * stack's boot (background-boot.ts). `handle` answers each request; a throw is a 500. It binds
 * port 0, so it cannot collide with a stack started beside it.
 */
export async function startControlServer(
  handle: (request: IncomingMessage) => ControlAnswer | Promise<ControlAnswer>,
): Promise<ControlServer> {
  const server = createServer((request, response) => {
    const answer = ([status, body = {}]: ControlAnswer) => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(body));
    };
    Promise.resolve()
      .then(() => handle(request))
      .then(answer, (error: unknown) => answer([500, { error: String(error) }]));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
